// The four looks every screen is photographed in for docs/screens: zh-CN and English, light and dark.
export const PHOTO_LOOKS = [
  { suffix: 'zh-light', locale: 'zh-CN', colorScheme: 'light' },
  { suffix: 'zh-dark', locale: 'zh-CN', colorScheme: 'dark' },
  { suffix: 'en-light', locale: 'en-US', colorScheme: 'light' },
  { suffix: 'en-dark', locale: 'en-US', colorScheme: 'dark' },
] as const;
