// Which language the UI speaks: the buyer's explicit choice, otherwise the system's (any zh-* is
// Chinese, everything else English).
export type Locale = 'zh-CN' | 'en';
export type LanguagePreference = 'system' | Locale;

export function pickLocale(language: string): Locale {
  return language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

export function resolveLocale(preference: LanguagePreference, systemLanguage: string): Locale {
  return preference === 'system' ? pickLocale(systemLanguage) : preference;
}
