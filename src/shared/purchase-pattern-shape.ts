// What a field's pattern (contract §5) says about the characters a valid value can hold, read from
// the pattern itself rather than guessed from a label: only digits (a numeric id, with its length
// and whether it may start with 0), only visible ASCII (an identifier: spaces and full-width forms
// can never be valid), or white space allowed. Only plain sequences are read (classes, \d \w \s,
// literals, quantifiers, anchors, one outer group); anything else is "not read" and never guessed.

export interface PatternShape {
  /** Every character a match can hold is 0–9. */
  readonly digitsOnly: boolean;
  /** Every character is visible ASCII (U+0021–U+007E): no space, no full-width or other script. */
  readonly visibleAscii: boolean;
  /** Some character a match can hold is white space. */
  readonly allowsSpace: boolean;
  /** Digits only and as simple as "a first digit, then any digits": the length and the first digit. */
  readonly digits: { readonly min: number; readonly max: number | null; readonly leadingZero: boolean } | null;
}

interface CharSet {
  readonly ranges: readonly (readonly [number, number])[];
}
interface Atom {
  readonly set: CharSet;
  readonly min: number;
  readonly max: number | null;
}

const DIGIT: CharSet = { ranges: [[0x30, 0x39]] };
const WORD: CharSet = { ranges: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]] };
const SPACE: CharSet = { ranges: [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]] };
const SPACE_POINTS = SPACE.ranges;
/** Characters that stand for themselves when escaped. */
const ESCAPABLE = new Set([...'\\^$.|?*+()[]{}/-']);
const META = new Set([...'\\^$.|?*+()[]{}']);

class Reader {
  index = 0;
  constructor(readonly text: string) {}
  peek(): string | undefined {
    return this.text[this.index];
  }
  take(): string | undefined {
    const c = this.text[this.index];
    this.index += 1;
    return c;
  }
  done(): boolean {
    return this.index >= this.text.length;
  }
}

/** `\d`, `\w`, `\s` or an escaped literal; null for anything else (`\b`, `\u…`, back references…). */
function escape(reader: Reader): CharSet | null {
  const c = reader.take();
  if (c === 'd') return DIGIT;
  if (c === 'w') return WORD;
  if (c === 's') return SPACE;
  if (c !== undefined && ESCAPABLE.has(c)) return { ranges: [[c.charCodeAt(0), c.charCodeAt(0)]] };
  return null;
}

function classMember(reader: Reader): CharSet | null {
  const c = reader.take();
  if (c === undefined) return null;
  if (c === '\\') return escape(reader);
  return { ranges: [[c.charCodeAt(0), c.charCodeAt(0)]] };
}

/** `[…]` after its `[`; a negated class is not read (it admits almost everything). */
function charClass(reader: Reader): CharSet | null {
  if (reader.peek() === '^') return null;
  const ranges: (readonly [number, number])[] = [];
  while (reader.peek() !== ']') {
    if (reader.done()) return null;
    const first = classMember(reader);
    if (first === null) return null;
    const single = first.ranges.length === 1 && first.ranges[0]?.[0] === first.ranges[0]?.[1];
    if (single && reader.peek() === '-' && reader.text[reader.index + 1] !== ']' && reader.index + 1 < reader.text.length) {
      reader.take();
      const last = classMember(reader);
      const from = first.ranges[0]?.[0];
      const to = last?.ranges.length === 1 && last.ranges[0]?.[0] === last.ranges[0]?.[1] ? last.ranges[0]?.[0] : undefined;
      if (from === undefined || to === undefined || to < from) return null;
      ranges.push([from, to]);
    } else {
      ranges.push(...first.ranges);
    }
  }
  reader.take();
  return ranges.length === 0 ? null : { ranges };
}

/** `{n}`, `{n,}`, `{n,m}`, `?`, `*`, `+` (lazy or not); `{min:1,max:1}` when there is none. */
function quantifier(reader: Reader): { min: number; max: number | null } | null {
  const c = reader.peek();
  let bounds: { min: number; max: number | null } = { min: 1, max: 1 };
  if (c === '?' || c === '*' || c === '+') {
    reader.take();
    bounds = c === '?' ? { min: 0, max: 1 } : c === '*' ? { min: 0, max: null } : { min: 1, max: null };
  } else if (c === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(reader.text.slice(reader.index));
    if (match === null) return null;
    reader.index += match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' || match[3] === undefined ? null : Number(match[3]);
    if (max !== null && max < min) return null;
    bounds = { min, max };
  }
  if (reader.peek() === '?') reader.take();
  return bounds;
}

function atom(reader: Reader): CharSet | null {
  const c = reader.take();
  if (c === '[') return charClass(reader);
  if (c === '\\') return escape(reader);
  if (c === undefined || META.has(c)) return null;
  return { ranges: [[c.charCodeAt(0), c.charCodeAt(0)]] };
}

/** The pattern as a plain sequence of quantified atoms, or null when it is anything more. */
function readSequence(source: string): Atom[] | null {
  let body = source;
  if (body.startsWith('^')) body = body.slice(1);
  if (body.endsWith('$') && !body.endsWith('\\$')) body = body.slice(0, -1);
  const group = /^\((?:\?:)?(.*)\)$/.exec(body);
  if (group !== null && !/[()|]/.test(group[1] ?? '')) body = group[1] ?? '';
  const reader = new Reader(body);
  const atoms: Atom[] = [];
  while (!reader.done()) {
    const set = atom(reader);
    if (set === null) return null;
    const bounds = quantifier(reader);
    if (bounds === null) return null;
    atoms.push({ set, ...bounds });
  }
  return atoms.length === 0 ? null : atoms;
}

const within = (set: CharSet, from: number, to: number): boolean => set.ranges.every(([a, b]) => a >= from && b <= to);
const overlapsSpace = (set: CharSet): boolean => set.ranges.some(([a, b]) => SPACE_POINTS.some(([s, t]) => a <= t && s <= b));
const isAllDigits = (set: CharSet): boolean => within(set, 0x30, 0x39);
const hasZero = (set: CharSet): boolean => set.ranges.some(([a, b]) => a <= 0x30 && 0x30 <= b);
const isEveryDigit = (set: CharSet): boolean => isAllDigits(set) && [...'0123456789'].every((d) => set.ranges.some(([a, b]) => a <= d.charCodeAt(0) && d.charCodeAt(0) <= b));
const isOneToNine = (set: CharSet): boolean => isAllDigits(set) && !hasZero(set) && [...'123456789'].every((d) => set.ranges.some(([a, b]) => a <= d.charCodeAt(0) && d.charCodeAt(0) <= b));

/** "A first digit (any, or 1–9), then any digits": its length bounds, or null for any other digit pattern. */
function digitRun(atoms: readonly Atom[]): PatternShape['digits'] {
  const [first, ...rest] = atoms;
  if (first === undefined || !rest.every((a) => isEveryDigit(a.set))) return null;
  const firstIsEvery = isEveryDigit(first.set);
  if (!firstIsEvery && !(isOneToNine(first.set) && first.min === 1 && first.max === 1)) return null;
  let min = 0;
  let max: number | null = 0;
  for (const a of atoms) {
    min += a.min;
    max = max === null || a.max === null ? null : max + a.max;
  }
  return { min, max, leadingZero: firstIsEvery };
}

/** What the pattern says about valid values, or null when it is not a plain sequence this reads. */
export function patternShape(source: string): PatternShape | null {
  const atoms = readSequence(source);
  if (atoms === null) return null;
  // A part that may be absent ({0}, ?) still says which characters can appear; a part that must be
  // absent ({0} or {0,0}) adds nothing.
  const present = atoms.filter((a) => a.max === null || a.max > 0);
  const digitsOnly = present.length > 0 && present.every((a) => isAllDigits(a.set));
  return {
    digitsOnly,
    visibleAscii: present.every((a) => within(a.set, 0x21, 0x7e)),
    allowsSpace: present.some((a) => overlapsSpace(a.set)),
    digits: digitsOnly && present.length === atoms.length ? digitRun(atoms) : null,
  };
}
