// An option field's value that names no option, or several (contract §7.11 "Filled by label"), in the
// buyer's words: the field, the value as given and the labels, joined as the language lists choices
// ("安卓QQ区、苹果QQ区或苹果微信区"). One wording for the paste box and the batch preview; the parts
// that are the merchant's (field, labels) and the buyer's (the value) come back marked, so the screen
// shows them untranslated.
import type { Locale } from '../i18n/locale';
import type { MessageKey } from '../i18n/messages-en';
import type { Params } from '../i18n/translate';

export interface OptionProblem {
  readonly field: string;
  readonly given: string;
  readonly reason: 'unknown' | 'ambiguous';
  readonly labels: readonly string[];
}

export interface WordsPart {
  readonly text: string;
  /** Not ours: the merchant's field and labels, the buyer's value. */
  readonly untranslated: 'merchant' | 'buyer' | null;
}

/** Stand-ins for the parts in the translated template (private-use characters no message holds). */
const MARKS = { '\uE001': 'field', '\uE002': 'given', '\uE003': 'labels' } as const;

export function optionProblemParts(t: (key: MessageKey, params?: Params) => string, locale: Locale, problem: OptionProblem): WordsPart[] {
  const labels = new Intl.ListFormat(locale, { type: 'disjunction' }).format(problem.labels);
  const template = t(problem.reason === 'unknown' ? 'options.unknown' : 'options.ambiguous', { field: '\uE001', given: '\uE002', labels: '\uE003' });
  return template
    .split(/([\uE001-\uE003])/)
    .filter((piece) => piece !== '')
    .map((piece): WordsPart => {
      const mark = piece === '\uE001' || piece === '\uE002' || piece === '\uE003' ? MARKS[piece] : null;
      if (mark === 'field') return { text: problem.field, untranslated: 'merchant' };
      if (mark === 'given') return { text: problem.given, untranslated: 'buyer' };
      if (mark === 'labels') return { text: labels, untranslated: 'merchant' };
      return { text: piece, untranslated: null };
    });
}
