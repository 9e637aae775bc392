// The rules an order must meet against its purchase template (contract §5), in one home for the order
// form and core: units against unitRule, how many entry groups the entry mode asks for, a field's
// pattern as a whole-value match, and each top-up entry value. The form checks them as the buyer
// types, core checks them again before an intent is written, and the merchant last (422110/422111).
// Values are cleaned first for the field's kind (purchase-entry-normalise.ts), so a phone number
// typed with spaces is checked as the number it is. Problems are codes with a parameter (a pattern
// problem carries the expected format); each side words them (the form in the buyer's language,
// core in English for the CLI and logs).
import type { EntryMode, PurchaseFieldType } from './merchant/known-values';
import { normaliseEntryValue } from './purchase-entry-normalise';
import { expectedFormat, type ExpectedFormat, type FormatEvidence } from './purchase-field-format';
import { fieldKind, type FieldEvidence, type FieldKind } from './purchase-field-kind';

/** A mainland mobile number: 11 digits starting with 1. */
export const MOBILE_PATTERN = /^1\d{10}$/;
/** Deliberately plain: one @, no spaces, a dot in the domain. The merchant has the final word. */
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export const INTEGER_PATTERN = /^-?\d+$/;

/** unitRule (contract §5): units is valid when min <= units <= max and (units - min) % step == 0. */
export interface UnitsRule {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** Why units do not fit the rule: out of [min, max] (or not a whole number), or off the step. */
export type UnitsProblem = 'range' | 'step';

export function unitsProblem(rule: UnitsRule, units: number): UnitsProblem | null {
  if (!Number.isSafeInteger(units) || units < rule.min || units > rule.max) return 'range';
  if ((units - rule.min) % rule.step !== 0) return 'step';
  return null;
}

/** Entry groups an order carries: none → 0, single → 1, perUnit → one per unit (0 while units are not a count). */
export function entryGroupCount(mode: EntryMode, units: number): number {
  if (mode === 'none') return 0;
  if (mode === 'single') return 1;
  return Number.isSafeInteger(units) && units > 0 ? units : 0;
}

/**
 * A field's pattern as the check uses it: anchored as a whole (contract §5 says the whole value must
 * match), or null when this JavaScript cannot read it (then the template is refused, never guessed at).
 */
export function compileEntryPattern(source: string): RegExp | null {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    return null;
  }
}

/** What a rule needs to know about a field (both sides' field models have these). */
export interface EntryFieldRule {
  readonly type: PurchaseFieldType;
  /** How its values are cleaned (fieldFacts: decided once from the template). */
  readonly kind: FieldKind;
  /** What a valid value looks like, for the error; null when the template says nothing. */
  readonly expected: ExpectedFormat | null;
  readonly required: boolean;
  /** Anchored: the whole value must match (contract §5). */
  readonly pattern: RegExp | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  readonly options: readonly { readonly value: string }[];
}

export type EntryProblem =
  | { readonly code: 'required' | 'mobile' | 'email' | 'integer' | 'option' }
  | { readonly code: 'pattern'; readonly expected: ExpectedFormat }
  | { readonly code: 'tooShort' | 'tooLong'; readonly limit: number };

/** A field's kind and expected format, decided once from its template entry (contract §5.1). */
export function fieldFacts(field: FieldEvidence & FormatEvidence): { kind: FieldKind; expected: ExpectedFormat | null } {
  return { kind: fieldKind(field), expected: expectedFormat(field) };
}

/**
 * Every problem of one value, checked after cleaning (empty: it is fine). An empty optional value is
 * fine; an empty required one is only `required`. The type's and the pattern's problems come first:
 * they say what a valid value looks like (its length included, for a digit pattern), which a bare
 * "too short" does not.
 */
export function entryValueProblems(field: EntryFieldRule, rawValue: string): EntryProblem[] {
  const value = normaliseEntryValue(field.kind, rawValue);
  if (value === '') return field.required ? [{ code: 'required' }] : [];
  const problems: EntryProblem[] = [];
  if (field.type === 'mobile' && !MOBILE_PATTERN.test(value)) problems.push({ code: 'mobile' });
  if (field.type === 'email' && !EMAIL_PATTERN.test(value)) problems.push({ code: 'email' });
  if (field.type === 'integer' && !INTEGER_PATTERN.test(value)) problems.push({ code: 'integer' });
  if (field.type === 'select' && !field.options.some((option) => option.value === value)) problems.push({ code: 'option' });
  if (field.pattern !== null && !field.pattern.test(value)) problems.push({ code: 'pattern', expected: field.expected ?? { kind: 'pattern', source: field.pattern.source } });
  const length = [...value].length;
  if (field.minLength !== null && length < field.minLength) problems.push({ code: 'tooShort', limit: field.minLength });
  if (field.maxLength !== null && length > field.maxLength) problems.push({ code: 'tooLong', limit: field.maxLength });
  return problems;
}
