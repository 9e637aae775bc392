// English labels of lane "fixes-ui" (catalog price range, export downloads in the web host); merged
// into messages-en.ts. messages-fixes-ui-zh-cn.ts has the same keys (checked by its type).
export const fixesUiEn = {
  'catalog.priceRangeInverted': 'The lowest price is above the highest price. Swap or correct them to see products.',

  'export.downloaded': 'Downloaded {count, plural, one {# card} other {# cards}}',
  'export.downloadedFile': 'Your browser saved the file as:',
  'export.downloadHint': 'The file was handed to your browser only: nothing is kept on the host. If the download did not start, export again.',
};

export type FixesUiMessageKey = keyof typeof fixesUiEn;
