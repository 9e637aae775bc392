// An option field's value that names no option, or several (contract §7.11 "Filled by label"), in the
// buyer's words: the field, the value as given and the labels, joined as the language lists choices
// ("安卓QQ区、苹果QQ区或苹果微信区"). One wording for the paste box and the batch preview.
import type { Locale } from '../i18n/locale';
import type { MessageKey } from '../i18n/messages-en';
import type { Params } from '../i18n/translate';

export interface OptionProblem {
  readonly field: string;
  readonly given: string;
  readonly reason: 'unknown' | 'ambiguous';
  readonly labels: readonly string[];
}

export function optionProblemWords(t: (key: MessageKey, params?: Params) => string, locale: Locale, problem: OptionProblem): string {
  const labels = new Intl.ListFormat(locale, { type: 'disjunction' }).format(problem.labels);
  return t(problem.reason === 'unknown' ? 'options.unknown' : 'options.ambiguous', { field: problem.field, given: problem.given, labels });
}
