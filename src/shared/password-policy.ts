// The strength rule for export passwords, shared so that the renderer's live meter and main's check
// can never disagree: main refuses exactly what this module refuses, and the screen explains the
// same `problem` in words. The password protects card codes in a file that may be mailed or copied
// to a USB stick, where an attacker can guess offline at leisure; the rule therefore refuses what
// guessers try first (short, one kind of character, common words, keyboard runs, repetitions)
// rather than counting symbols.

export const MIN_EXPORT_PASSWORD_LENGTH = 10;
/** The contract's limit (ipc/views/vault.ts); longer input is refused before it is hashed. */
export const MAX_EXPORT_PASSWORD_LENGTH = 256;

export const PASSWORD_PROBLEMS = ['empty', 'tooShort', 'tooLong', 'oneClass', 'common', 'sequential', 'repeated'] as const;
export type PasswordProblem = (typeof PASSWORD_PROBLEMS)[number];

/** 0 (refused) … 4 (strong): what the meter shows. */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export interface PasswordVerdict {
  readonly ok: boolean;
  /** The first rule the password breaks; null when it is accepted. */
  readonly problem: PasswordProblem | null;
  readonly score: PasswordScore;
}

/** The reason in English, for main's error messages and logs (the screen uses its own tables). */
export const PASSWORD_PROBLEM_TEXT: Readonly<Record<PasswordProblem, string>> = {
  empty: 'a password is required for an encrypted export',
  tooShort: `the password must be at least ${MIN_EXPORT_PASSWORD_LENGTH} characters long`,
  tooLong: `the password must be at most ${MAX_EXPORT_PASSWORD_LENGTH} characters long`,
  oneClass: 'the password must mix at least two kinds of characters (letters, digits, symbols)',
  common: 'the password is a common password or a common word with digits around it',
  sequential: 'the password is mostly a run of keys or characters (like abcdef, 123456 or qwerty)',
  repeated: 'the password repeats a few characters or a short pattern',
};

// The first words a guesser tries (leaked-password lists, in English and pinyin), compared after
// lowering case, undoing common letter swaps and dropping digits and symbols around them.
const COMMON_WORDS: ReadonlySet<string> = new Set([
  'password', 'passw', 'passwd', 'pass', 'pwd', 'qwerty', 'qwertyuiop', 'asdf', 'asdfgh', 'asdfghjkl', 'zxcvbn', 'zxcvbnm',
  'iloveyou', 'admin', 'administrator', 'welcome', 'letmein', 'monkey', 'dragon', 'master', 'login', 'abc', 'abcd', 'abcdef',
  'football', 'baseball', 'sunshine', 'princess', 'shadow', 'superman', 'trustno', 'whatever', 'secret', 'changeme', 'default',
  'test', 'testing', 'guest', 'root', 'user', 'hello', 'freedom', 'computer', 'internet', 'starwars', 'michael', 'jennifer',
  'woaini', 'woaiwojia', 'nihao', 'aini', 'wangyi', 'qq', 'taobao', 'baidu', 'zhangwei', 'wangwei', 'liwei', 'zhongguo',
  'china', 'beijing', 'shanghai', 'card', 'cards', 'export', 'procure', 'procuredesk', 'vault', 'kami', 'mima',
]);

const LEET: Readonly<Record<string, string>> = { '@': 'a', '4': 'a', '0': 'o', '1': 'i', '!': 'i', '3': 'e', '$': 's', '5': 's', '7': 't' };

/** Rows of the keys (US layout and number row): a run along one of them is as guessable as "abcdef". */
const KEY_ROWS = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik,9ol.0p;/'];

type CharClass = 'lower' | 'upper' | 'digit' | 'other';

function classOf(char: string): CharClass {
  if (/^\p{Ll}$/u.test(char)) return 'lower';
  if (/^\p{Lu}$/u.test(char)) return 'upper';
  if (/^\p{Nd}$/u.test(char)) return 'digit';
  // Symbols, spaces and letters without case (汉字): all count as "other", which is plenty: a
  // password of Chinese characters and digits mixes two classes.
  return 'other';
}

/**
 * The directions in which `b` follows `a` on a run: next or previous code point (a→b, 2→1), or the
 * next or previous key on one of the rows. A run continues only in a direction it already had.
 */
function stepDirections(a: string, b: string): Set<string> {
  const directions = new Set<string>();
  const diff = (b.codePointAt(0) ?? 0) - (a.codePointAt(0) ?? 0);
  if (diff === 1) directions.add('code+');
  if (diff === -1) directions.add('code-');
  KEY_ROWS.forEach((row, r) => {
    for (let i = row.indexOf(a); i !== -1; i = row.indexOf(a, i + 1)) {
      if (row[i + 1] === b) directions.add(`row${r}+`);
      if (i > 0 && row[i - 1] === b) directions.add(`row${r}-`);
    }
  });
  return directions;
}

/** The longest stretch of characters each following the one before in one consistent direction. */
function longestRun(chars: readonly string[]): number {
  let best = chars.length === 0 ? 0 : 1;
  let run = 1;
  let current: Set<string> = new Set();
  for (let i = 1; i < chars.length; i++) {
    const here = stepDirections(chars[i - 1] ?? '', chars[i] ?? '');
    const same = new Set([...here].filter((d) => current.has(d)));
    if (same.size > 0) {
      run += 1;
      current = same;
    } else {
      run = here.size > 0 ? 2 : 1;
      current = here;
    }
    best = Math.max(best, run);
  }
  return best;
}

/** True when the text is a shorter unit repeated (abcabcabc, Ab1!Ab1!Ab1!). */
function isRepetition(chars: readonly string[]): boolean {
  const n = chars.length;
  for (let unit = 1; unit <= n / 2; unit++) {
    if (n % unit !== 0) continue;
    let same = true;
    for (let i = unit; i < n && same; i++) same = chars[i] === chars[i - unit];
    if (same) return true;
  }
  return false;
}

function isCommon(lowered: string): boolean {
  // The word inside the decoration: digits and symbols around it dropped, swaps inside undone
  // ("P@ssw0rd!!2025" → "p@ssw0rd" → "password").
  const core = lowered.replace(/^[^\p{L}]+/u, '').replace(/[^\p{L}]+$/u, '');
  const letters = [...core].map((c) => LEET[c] ?? c).join('').replace(/[^\p{L}]/gu, '');
  if (letters.length === 0) return false;
  return COMMON_WORDS.has(letters) || COMMON_WORDS.has(lowered.replace(/[^\p{L}]/gu, ''));
}

function scoreOf(length: number, classes: number): PasswordScore {
  if (length >= 16 && classes >= 3) return 4;
  if (length >= 14 || classes >= 3) return 3;
  return 2;
}

/** The verdict on a candidate export password. */
export function checkExportPassword(password: string): PasswordVerdict {
  const chars = [...password];
  const refuse = (problem: PasswordProblem, score: PasswordScore = 0): PasswordVerdict => ({ ok: false, problem, score });
  if (chars.length === 0) return refuse('empty');
  if (chars.length > MAX_EXPORT_PASSWORD_LENGTH) return refuse('tooLong');
  const partial: PasswordScore = chars.length >= MIN_EXPORT_PASSWORD_LENGTH / 2 ? 1 : 0;
  if (chars.length < MIN_EXPORT_PASSWORD_LENGTH) return refuse('tooShort', partial);
  const classes = new Set(chars.map(classOf)).size;
  if (classes < 2) return refuse('oneClass', 1);
  const lowered = password.toLowerCase();
  const loweredChars = [...lowered];
  if (new Set(loweredChars).size <= 3 || isRepetition(loweredChars)) return refuse('repeated', 1);
  // More than half of it along one run of keys or letters: the rest is the decoration guessers add.
  if (longestRun(loweredChars) * 2 > loweredChars.length) return refuse('sequential', 1);
  if (isCommon(lowered)) return refuse('common', 1);
  return { ok: true, problem: null, score: scoreOf(chars.length, classes) };
}
