// Issue 26, words a buyer reads: the time zone by its name, the certificate's subject labelled as
// technical data. Same keys as messages-words-zh-cn.ts (checked by the type).
export const wordsEn = {
  'dashboard.timeZoneValue': '{name} ({offset})',
  'dashboard.timeZoneId': 'time zone ID',
  'settings.caCertSubject': 'Certificate subject (technical data): ',
} as const;

export type WordsMessageKey = keyof typeof wordsEn;
