// The order form's inline checks, the same rules core applies before writing an intent (and the
// merchant after it, 422110/422111): catching them here tells the buyer which box to fix before
// anything is sent. Errors are codes with parameters; the screen words them in the buyer's language.
import type { EntryGroup, FieldModel, FormModel, UnitRule } from './template-form';

export type UnitsError = { readonly code: 'unitsRange' | 'unitsStep'; readonly min: number; readonly max: number; readonly step: number };

export type FieldError =
  | { readonly code: 'required' | 'mobile' | 'email' | 'integer' | 'option' | 'pattern' }
  | { readonly code: 'tooShort' | 'tooLong'; readonly limit: number };

export interface FormErrors {
  readonly units: UnitsError | null;
  /** One map per entry group: fieldRef → its first problem. */
  readonly groups: readonly Readonly<Record<string, FieldError>>[];
  readonly count: number;
}

const MOBILE = /^1\d{10}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const INTEGER = /^-?\d+$/;

export function validateUnits(rule: UnitRule, units: number): UnitsError | null {
  const params = { min: rule.min, max: rule.max, step: rule.step };
  if (!Number.isSafeInteger(units) || units < rule.min || units > rule.max) return { code: 'unitsRange', ...params };
  if ((units - rule.min) % rule.step !== 0) return { code: 'unitsStep', ...params };
  return null;
}

/** The first problem of one value, or null. Empty optional values are fine. */
export function validateField(field: FieldModel, rawValue: string): FieldError | null {
  const value = rawValue.trim();
  if (value === '') return field.required ? { code: 'required' } : null;
  const length = [...value].length;
  if (field.minLength !== null && length < field.minLength) return { code: 'tooShort', limit: field.minLength };
  if (field.maxLength !== null && length > field.maxLength) return { code: 'tooLong', limit: field.maxLength };
  if (field.type === 'mobile' && !MOBILE.test(value)) return { code: 'mobile' };
  if (field.type === 'email' && !EMAIL.test(value)) return { code: 'email' };
  if (field.type === 'integer' && !INTEGER.test(value)) return { code: 'integer' };
  if (field.type === 'select' && !field.options.some((option) => option.value === value)) return { code: 'option' };
  if (field.pattern !== null && !field.pattern.test(value)) return { code: 'pattern' };
  return null;
}

export function validateForm(model: FormModel, units: number, groups: readonly EntryGroup[]): FormErrors {
  const unitsError = validateUnits(model.unitRule, units);
  let count = unitsError === null ? 0 : 1;
  const groupErrors = model.entryMode === 'none' ? [] : groups.map((group) => {
    const errors: Record<string, FieldError> = {};
    for (const field of model.fields) {
      const problem = validateField(field, group[field.fieldRef] ?? '');
      if (problem !== null) {
        errors[field.fieldRef] = problem;
        count += 1;
      }
    }
    return errors;
  });
  return { units: unitsError, groups: groupErrors, count };
}
