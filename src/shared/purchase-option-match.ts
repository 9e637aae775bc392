// Which option a typed, pasted or file value names (contract §7.11 "Filled by label"): the option's code
// (`ios-qq`) or its label (苹果QQ区), as the buyer reads it. One home for the order form's paste box, the
// batch rows and the CLI (core resolves every select value here before it checks and sends the code).
// Tried in turn: the exact code, the exact label, then a forgiving key (full-width to half-width, case of
// ASCII letters and every space ignored); a value that names two different options is never guessed.

/** An option as the template lists it: the code sent, the label read. */
export interface MatchOption {
  readonly value: string;
  readonly label: string;
}

export type OptionMatch =
  /** Nothing typed: the field's required rule decides. */
  | { readonly kind: 'empty' }
  | { readonly kind: 'matched'; readonly value: string; readonly label: string; readonly by: 'code' | 'label' | 'loose' }
  /** No option has this code or label. */
  | { readonly kind: 'unknown'; readonly given: string }
  /** Several different options answer to it: their labels, in the template's order. */
  | { readonly kind: 'ambiguous'; readonly given: string; readonly labels: readonly string[] };

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;

/** The forgiving key: NFKC (full-width ASCII to half-width), no zero-width or white space, ASCII letters lowercased. */
export function looseOptionKey(text: string): string {
  return text
    .normalize('NFKC')
    .replace(ZERO_WIDTH, '')
    .replace(/\s+/g, '')
    .replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The distinct options (by code) among `found`; one → matched, several → ambiguous, none → null. */
function decide(found: readonly MatchOption[], given: string, by: 'code' | 'label' | 'loose'): OptionMatch | null {
  const codes = [...new Set(found.map((option) => option.value))];
  const first = found[0];
  if (first === undefined) return null;
  if (codes.length === 1) return { kind: 'matched', value: first.value, label: first.label, by };
  return { kind: 'ambiguous', given, labels: [...new Set(found.map((option) => option.label))] };
}

/**
 * The option `raw` names among `options`. A value that is one option's code and another option's label
 * is ambiguous too: which one the buyer meant cannot be told, and a wrong zone is a lost top-up.
 */
export function matchOption(options: readonly MatchOption[], raw: string): OptionMatch {
  const given = raw.trim();
  if (given === '') return { kind: 'empty' };
  const byCode = options.filter((option) => option.value === given);
  const byLabel = options.filter((option) => option.label.trim() === given);
  const exact = decide([...byCode, ...byLabel], given, byCode.length > 0 ? 'code' : 'label');
  if (exact !== null) return exact;
  const key = looseOptionKey(given);
  const loose = options.filter((option) => looseOptionKey(option.value) === key || looseOptionKey(option.label) === key);
  return decide(loose, given, 'loose') ?? { kind: 'unknown', given };
}

/** The labels of every option, in the template's order: what an unknown value's error lists. */
export function optionLabelList(options: readonly MatchOption[]): string[] {
  return options.map((option) => option.label || option.value);
}
