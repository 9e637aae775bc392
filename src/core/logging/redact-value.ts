// Turns any value into JSON-safe data with every secret removed. Key rules apply to structured
// fields; every string (including object keys, Error messages and stacks, URLs) goes through the
// text redactor, which catches what the key rules cannot see.
import { isEntryKey, isSecretKey, isVerificationContext, normalizeKey, REDACTED } from './secret-patterns';

const MAX_DEPTH = 12;

type TextRedactor = (text: string) => string;

interface Walk {
  readonly text: TextRedactor;
  readonly ancestors: Set<object>;
}

interface Place {
  readonly depth: number;
  /** Inside a verification-related object: a string `code` there is a verification code. */
  readonly verification: boolean;
  /** Inside purchase entries: keep the shape, hide every value. */
  readonly hideValues: boolean;
}

export function redactValue(value: unknown, text: TextRedactor): unknown {
  return walk(value, { text, ancestors: new Set() }, { depth: 0, verification: false, hideValues: false });
}

function walk(value: unknown, w: Walk, place: Place): unknown {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
      return place.hideValues ? REDACTED : w.text(value);
    case 'number':
    case 'boolean':
      return place.hideValues ? REDACTED : value;
    case 'bigint':
      return place.hideValues ? REDACTED : value.toString();
    case 'symbol':
      return w.text(value.toString());
    case 'function':
      return '[Function]';
    case 'object':
      return walkObject(value, w, place);
    default:
      return '[Unknown]';
  }
}

function walkObject(value: object, w: Walk, place: Place): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof URL) return w.text(value.href);
  // Bytes may hold key material or card secrets; their content is never rendered.
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes]`;
  if (value instanceof ArrayBuffer) return `[binary ${value.byteLength} bytes]`;
  if (w.ancestors.has(value)) return '[Circular]';
  if (place.depth >= MAX_DEPTH) return '[Truncated]';
  w.ancestors.add(value);
  try {
    const inner: Place = { ...place, depth: place.depth + 1 };
    if (Array.isArray(value)) return value.map((item: unknown) => walk(item, w, inner));
    if (value instanceof Set) return [...value].map((item: unknown) => walk(item, w, inner));
    if (value instanceof Map) return walkEntries([...value.entries()].map(([k, v]: [unknown, unknown]) => [String(k), v]), w, inner);
    if (typeof Headers !== 'undefined' && value instanceof Headers) return walkEntries([...value.entries()], w, inner);
    if (value instanceof Error) return walkError(value, w, inner);
    return walkEntries(Object.entries(value), w, inner);
  } finally {
    w.ancestors.delete(value);
  }
}

function walkError(error: Error, w: Walk, place: Place): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: w.text(error.name),
    message: w.text(error.message),
  };
  if (error.stack !== undefined) out.stack = w.text(error.stack);
  // Own fields such as code, status, requestId follow the same key rules as any object.
  Object.assign(out, walkEntries(Object.entries(error), w, place));
  if (error.cause !== undefined) out.cause = walk(error.cause, w, place);
  if (error instanceof AggregateError) out.errors = walk(error.errors, w, place);
  return out;
}

function walkEntries(entries: readonly (readonly [string, unknown])[], w: Walk, place: Place): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of entries) {
    const name = w.text(key);
    out[name] = walkField(key, child, w, place);
  }
  return out;
}

function walkField(key: string, child: unknown, w: Walk, place: Place): unknown {
  // Absence is worth seeing ("no key was sent"); any present value is hidden.
  if (isSecretKey(key)) return child === null || child === undefined ? child : REDACTED;
  // `code` is usually the business error code (a number, kept); a string code under a
  // verification-related key is the code the buyer typed.
  if (normalizeKey(key) === 'code' && place.verification && typeof child === 'string') return REDACTED;
  const next: Place = {
    ...place,
    verification: place.verification || isVerificationContext(key),
    hideValues: place.hideValues || isEntryKey(key),
  };
  return walk(child, w, next);
}
