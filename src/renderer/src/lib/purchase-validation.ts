// The order form's inline checks, the same rules core applies before writing an intent (and the
// merchant after it, 422110/422111): catching them here tells the buyer which box to fix before
// anything is sent. Errors are codes with parameters; the screen words them in the buyer's language.
// The units rule, the value rules and the cleaning are shared with core (src/shared/purchase-entry-*.ts): the box
// keeps what the buyer typed, the checks and the order use the cleaned value (normaliseFieldValue,
// and template-form's buildPurchaseEntries for what is sent and confirmed).
import { normaliseEntryValue } from '../../../shared/purchase-entry-normalise';
import { entryValueProblems, unitsProblem, type EntryProblem } from '../../../shared/purchase-entry-rules';
import type { EntryGroup, FieldModel, FormModel, UnitRule } from './template-form';

export type UnitsError = { readonly code: 'unitsRange' | 'unitsStep'; readonly min: number; readonly max: number; readonly step: number };

export type FieldError = EntryProblem;

export interface FormErrors {
  readonly units: UnitsError | null;
  /** One map per entry group: fieldRef → its first problem. */
  readonly groups: readonly Readonly<Record<string, FieldError>>[];
  readonly count: number;
}

export function validateUnits(rule: UnitRule, units: number): UnitsError | null {
  const problem = unitsProblem(rule, units);
  if (problem === null) return null;
  return { code: problem === 'range' ? 'unitsRange' : 'unitsStep', min: rule.min, max: rule.max, step: rule.step };
}

/** The first problem of one value (checked as cleaned), or null. Empty optional values are fine. */
export function validateField(field: FieldModel, rawValue: string): FieldError | null {
  return entryValueProblems(field, rawValue)[0] ?? null;
}

/** One value as it will be checked, confirmed and sent (e.g. ` 138 0013 8000 ` → `13800138000`). */
export function normaliseFieldValue(field: FieldModel, rawValue: string): string {
  return normaliseEntryValue(field.kind, rawValue);
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
