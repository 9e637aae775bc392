// The rules one top-up entry value must meet (contract §5), in one home for the order form and core:
// the form checks them as the buyer types, core checks them again before an intent is written, and
// the merchant last (422111). Values are cleaned first (purchase-entry-normalise.ts), so a phone
// number typed with spaces is checked as the number it is. Problems are codes with a parameter;
// each side words them (the form in the buyer's language, core in English for the CLI and logs).
import type { PurchaseFieldType } from './merchant/known-values';
import { normaliseEntryValue } from './purchase-entry-normalise';

/** A mainland mobile number: 11 digits starting with 1. */
export const MOBILE_PATTERN = /^1\d{10}$/;
/** Deliberately plain: one @, no spaces, a dot in the domain. The merchant has the final word. */
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export const INTEGER_PATTERN = /^-?\d+$/;

/** What a rule needs to know about a field (both sides' field models have these). */
export interface EntryFieldRule {
  readonly type: PurchaseFieldType;
  readonly required: boolean;
  /** Anchored: the whole value must match (contract §5). */
  readonly pattern: RegExp | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  readonly options: readonly { readonly value: string }[];
}

export type EntryProblem =
  | { readonly code: 'required' | 'mobile' | 'email' | 'integer' | 'option' | 'pattern' }
  | { readonly code: 'tooShort' | 'tooLong'; readonly limit: number };

/**
 * Every problem of one value, checked after cleaning (empty: it is fine). An empty optional value is
 * fine; an empty required one is only `required`.
 */
export function entryValueProblems(field: EntryFieldRule, rawValue: string): EntryProblem[] {
  const value = normaliseEntryValue(field.type, rawValue);
  if (value === '') return field.required ? [{ code: 'required' }] : [];
  const problems: EntryProblem[] = [];
  const length = [...value].length;
  if (field.minLength !== null && length < field.minLength) problems.push({ code: 'tooShort', limit: field.minLength });
  if (field.maxLength !== null && length > field.maxLength) problems.push({ code: 'tooLong', limit: field.maxLength });
  if (field.type === 'mobile' && !MOBILE_PATTERN.test(value)) problems.push({ code: 'mobile' });
  if (field.type === 'email' && !EMAIL_PATTERN.test(value)) problems.push({ code: 'email' });
  if (field.type === 'integer' && !INTEGER_PATTERN.test(value)) problems.push({ code: 'integer' });
  if (field.type === 'select' && !field.options.some((option) => option.value === value)) problems.push({ code: 'option' });
  if (field.pattern !== null && !field.pattern.test(value)) problems.push({ code: 'pattern' });
  return problems;
}
