// Checks an order against the cached purchase template (contract 5) before anything is written or
// sent: units against unitRule, entry groups against entryMode, each value against its field. The
// merchant checks the same (422110/422111); failing here keeps a bad order from costing a request
// and tells the buyer which field to fix. A template with an entry mode or field type this build
// does not know is refused as a whole: the merchant is newer than the app and we must not guess.
import {
  classifyEntryMode,
  classifyPurchaseFieldType,
  type EntryMode,
  type PurchaseFieldType,
} from '../../../shared/merchant/known-values';
import type { PurchaseField, PurchaseTemplate } from '../../../shared/merchant/template';
import { PurchaseValidationError, TemplateNotSupportedError, type PurchaseFieldError } from './order-errors';

export interface PurchaseInput {
  readonly units: number;
  /** One group per entry, `{ fieldRef: value }`; absent or empty for entryMode `none`. */
  readonly purchaseEntries?: readonly Readonly<Record<string, unknown>>[];
}

const MOBILE = /^1\d{10}$/;
// Deliberately plain: one @, no spaces, a dot in the domain. The merchant has the final word.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const INTEGER = /^-?\d+$/;

interface KnownField {
  readonly field: PurchaseField;
  readonly type: PurchaseFieldType;
  readonly pattern: RegExp | null;
}

/** The entry mode and typed fields, or TemplateNotSupportedError for anything unknown. */
function understand(template: PurchaseTemplate): { mode: EntryMode; fields: KnownField[] } {
  const mode = classifyEntryMode(template.entryMode);
  if (mode.kind === 'unknown') {
    throw new TemplateNotSupportedError(`the purchase template uses entry mode "${mode.raw}", which this version of the app does not know; update the app before ordering this product`);
  }
  const fields = template.purchaseFields.map((field): KnownField => {
    const type = classifyPurchaseFieldType(field.type);
    if (type.kind === 'unknown') {
      throw new TemplateNotSupportedError(`the purchase field ${field.fieldRef} has type "${type.raw}", which this version of the app does not know; update the app before ordering this product`);
    }
    if (type.value === 'select' && (field.options === null || field.options.length === 0)) {
      throw new TemplateNotSupportedError(`the select field ${field.fieldRef} lists no options`);
    }
    let pattern: RegExp | null = null;
    if (field.pattern !== null) {
      try {
        // Anchored as a whole: contract 5 says the whole value must match.
        pattern = new RegExp(`^(?:${field.pattern})$`);
      } catch {
        throw new TemplateNotSupportedError(`the purchase field ${field.fieldRef} has a pattern this app cannot read`);
      }
    }
    return { field, type: type.value, pattern };
  });
  return { mode: mode.value, fields };
}

function checkUnits(template: PurchaseTemplate, units: number, errors: PurchaseFieldError[]): void {
  const { min, max, step } = template.unitRule;
  if (!Number.isSafeInteger(units) || units < min || units > max) {
    errors.push({ path: 'units', code: 'UNITS_OUT_OF_RANGE', message: `must be a whole number from ${min} to ${max}` });
  } else if ((units - min) % step !== 0) {
    errors.push({ path: 'units', code: 'UNITS_STEP', message: `must be ${min} plus a multiple of ${step}` });
  }
}

function checkValue(known: KnownField, value: string, path: string, errors: PurchaseFieldError[]): void {
  const { field, type, pattern } = known;
  const length = [...value].length;
  const add = (code: PurchaseFieldError['code'], message: string): void => {
    errors.push({ path, code, message: `${field.label || field.fieldRef}: ${message}` });
  };
  if (field.minLength !== null && length < field.minLength) add('TOO_SHORT', `at least ${field.minLength} characters`);
  if (field.maxLength !== null && length > field.maxLength) add('TOO_LONG', `at most ${field.maxLength} characters`);
  if (type === 'mobile' && !MOBILE.test(value)) add('MOBILE', 'a mainland mobile number of 11 digits starting with 1');
  if (type === 'email' && !EMAIL.test(value)) add('EMAIL', 'an email address');
  if (type === 'integer' && !INTEGER.test(value)) add('INTEGER', 'a whole number');
  if (type === 'select' && !(field.options ?? []).some((option) => option.value === value)) add('OPTION', 'one of the listed options');
  if (pattern !== null && !pattern.test(value)) add('PATTERN', 'not in the expected format');
}

function checkGroup(fields: readonly KnownField[], group: Readonly<Record<string, unknown>>, index: number, errors: PurchaseFieldError[]): void {
  const byRef = new Map(fields.map((known) => [known.field.fieldRef, known]));
  for (const key of Object.keys(group)) {
    if (!byRef.has(key)) errors.push({ path: `purchaseEntries[${index}].${key}`, code: 'UNKNOWN_FIELD', message: 'the template has no such field' });
  }
  for (const known of fields) {
    const path = `purchaseEntries[${index}].${known.field.fieldRef}`;
    const value = Object.hasOwn(group, known.field.fieldRef) ? group[known.field.fieldRef] : undefined;
    if (value === undefined || value === '') {
      if (known.field.required) errors.push({ path, code: 'REQUIRED', message: `${known.field.label || known.field.fieldRef}: required` });
      continue;
    }
    if (typeof value !== 'string') {
      errors.push({ path, code: 'NOT_A_STRING', message: `${known.field.label || known.field.fieldRef}: every value is text` });
      continue;
    }
    checkValue(known, value, path, errors);
  }
}

/**
 * Returns the entries to store and send (normalised: empty optional values dropped, `[]` for
 * entryMode none), or throws PurchaseValidationError listing every problem at once, or
 * TemplateNotSupportedError.
 */
export function validatePurchase(template: PurchaseTemplate, input: PurchaseInput): Record<string, string>[] {
  const { mode, fields } = understand(template);
  const errors: PurchaseFieldError[] = [];
  checkUnits(template, input.units, errors);
  const entries = input.purchaseEntries ?? [];
  const expected = mode === 'none' ? 0 : mode === 'single' ? 1 : input.units;
  if (entries.length !== expected) {
    const what = mode === 'none' ? 'no entries (this product takes none)' : mode === 'single' ? 'exactly one entry group' : `one entry group per unit (${input.units})`;
    errors.push({ path: 'purchaseEntries', code: 'ENTRY_COUNT', message: `expected ${what}, got ${entries.length}` });
  } else {
    entries.forEach((group, index) => checkGroup(fields, group, index, errors));
  }
  if (errors.length > 0) throw new PurchaseValidationError(errors);
  return entries.map((group) => {
    const clean: Record<string, string> = {};
    for (const known of fields) {
      const value = group[known.field.fieldRef];
      if (typeof value === 'string' && value !== '') clean[known.field.fieldRef] = value;
    }
    return clean;
  });
}

/** Field refs whose values must never reach a log (spec 5 `sensitive`); top-up accounts are all treated so. */
export function sensitiveValues(entries: readonly Readonly<Record<string, string>>[]): string[] {
  return entries.flatMap((group) => Object.values(group));
}
