// English words of option fields filled by label (contract §7.11 "Filled by label"): the paste box's and
// the batch preview's per-row errors. messages-options-zh-cn.ts has the same keys (checked by its type).
export const optionsEn = {
  'options.unknown': '{field} “{given}” is not one of the options: {labels}',
  'options.ambiguous': '{field} “{given}” could be {labels}: write the option’s whole name',
  'options.pasteLine': 'Line {line}: {problem}',
  'options.pasteRefused': '{count, plural, one {# line names} other {# lines name}} no option and will not be used; correct {count, plural, one {it} other {them}} and paste again.',
  'options.batchTitle': '{count, plural, one {# row names} other {# rows name}} no option and will not be ordered:',
  'options.batchRows': '{count, plural, one {Row} other {Rows}} {rows}: {problem}',
  'options.pasteHint': '{fields}: write the option’s name as listed (e.g. “{example}”) or its code; left empty, the one already chosen is kept.',
};

export type OptionsMessageKey = keyof typeof optionsEn;
