// Checks an order's `units` and `purchaseEntries` against the variant's purchase template
// (contract §5), with the codes of interface v1 §7.3: 422110 for units, 422111 for entries.
import { ApiError } from '../http/api-error';
import type { PurchaseField, PurchaseTemplate } from './catalog-types';

export type EntryGroup = Record<string, string>;

export function checkUnits(template: PurchaseTemplate, units: number): void {
  const { min, max, step } = template.unitRule;
  if (units < min || units > max || (units - min) % step !== 0) {
    throw new ApiError('UNITS_NOT_ALLOWED', `units must be between ${min} and ${max} in steps of ${step}`);
  }
}

/** Reads the raw `purchaseEntries` value into groups of string values, or refuses its shape. */
export function readEntryGroups(raw: unknown): EntryGroup[] {
  if (raw === undefined || raw === null) return [];
  // A wrong JSON shape is a malformed body (400001); a well-formed body that does not fit the
  // template is PURCHASE_INPUT_INVALID (checkEntries).
  if (!Array.isArray(raw)) throw new ApiError('INVALID_ARGUMENT', 'purchaseEntries must be an array of objects');
  return raw.map((group, index) => {
    if (typeof group !== 'object' || group === null || Array.isArray(group)) {
      throw new ApiError('INVALID_ARGUMENT', `purchaseEntries[${index}] must be an object`);
    }
    const values: EntryGroup = {};
    for (const [key, value] of Object.entries(group as Record<string, unknown>)) {
      if (typeof value !== 'string') throw new ApiError('INVALID_ARGUMENT', `purchaseEntries[${index}].${key} must be a string`);
      values[key] = value;
    }
    return values;
  });
}

const TYPE_RULES: Record<PurchaseField['type'], RegExp | null> = {
  text: null,
  mobile: /^1\d{10}$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  integer: /^-?\d+$/,
  select: null,
};

function checkField(field: PurchaseField, value: string | undefined, index: number): void {
  const where = `purchaseEntries[${index}].${field.fieldRef}`;
  if (value === undefined || value === '') {
    if (field.required) throw new ApiError('PURCHASE_INPUT_INVALID', `${where} is required`);
    return;
  }
  const length = [...value].length;
  if ((field.minLength !== null && length < field.minLength) || (field.maxLength !== null && length > field.maxLength)) {
    throw new ApiError('PURCHASE_INPUT_INVALID', `${where} has an invalid length`);
  }
  const typeRule = TYPE_RULES[field.type];
  if (typeRule && !typeRule.test(value)) throw new ApiError('PURCHASE_INPUT_INVALID', `${where} is not a valid ${field.type}`);
  if (field.pattern !== null && !new RegExp(field.pattern).test(value)) {
    throw new ApiError('PURCHASE_INPUT_INVALID', `${where} does not match the required format`);
  }
  if (field.type === 'select' && !(field.options ?? []).some((option) => option.value === value)) {
    throw new ApiError('PURCHASE_INPUT_INVALID', `${where} is not one of the offered options`);
  }
}

export function checkEntries(template: PurchaseTemplate, units: number, groups: EntryGroup[]): void {
  const expected = template.entryMode === 'none' ? 0 : template.entryMode === 'single' ? 1 : units;
  if (groups.length !== expected) {
    throw new ApiError('PURCHASE_INPUT_INVALID', `entryMode ${template.entryMode} takes ${expected} purchaseEntries groups, got ${groups.length}`);
  }
  const known = new Set(template.purchaseFields.map((f) => f.fieldRef));
  groups.forEach((group, index) => {
    for (const key of Object.keys(group)) {
      if (!known.has(key)) throw new ApiError('PURCHASE_INPUT_INVALID', `purchaseEntries[${index}].${key} is not a field of the template`);
    }
    for (const field of template.purchaseFields) checkField(field, group[field.fieldRef], index);
  });
}

/** Canonical JSON of the entry groups (keys sorted) so that a retry compares equal (interface v1 §4.2.1). */
export function canonicalEntries(groups: EntryGroup[]): string {
  return JSON.stringify(groups.map((group) => Object.fromEntries(Object.entries(group).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))));
}
