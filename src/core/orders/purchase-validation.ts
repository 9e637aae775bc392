// Checks an order against the cached purchase template (contract §5) before anything is written or
// sent: units against unitRule, entry groups against entryMode, each value against its field. The
// merchant checks the same (422110/422111); failing here keeps a bad order from costing a request
// and tells the buyer which field to fix. A template with an entry mode or field type this build
// does not know is refused as a whole: the merchant is newer than the app and we must not guess.
// Entry values are cleaned for their field's kind (shared/purchase-entry-normalise.ts, contract §5.1)
// before they are checked, and the cleaned values are what this returns, so the intent stores and
// sends exactly what was checked: the CLI, a batch row and the form all go through here.
import {
  classifyEntryMode,
  classifyPurchaseFieldType,
  type EntryMode,
} from '../../shared/merchant/known-values';
import type { PurchaseField, PurchaseTemplate } from '../../shared/merchant/template';
import { entryCharacterProblem, type EntryCharacterProblem } from '../../shared/entry-characters';
import { normaliseEntryValue } from '../../shared/purchase-entry-normalise';
import { compileEntryPattern, entryGroupCount, entryValueProblems, fieldFacts, unitsProblem, type EntryFieldRule, type EntryProblem } from '../../shared/purchase-entry-rules';
import { describeFormat } from './field-format-words';
import { PurchaseValidationError, TemplateNotSupportedError, type PurchaseFieldError } from './order-errors';
import { optionError, withOptionCodes } from './purchase-option-codes';

export interface PurchaseInput {
  readonly units: number;
  /** One group per entry, `{ fieldRef: value }`; absent or empty for entryMode `none`. */
  readonly purchaseEntries?: readonly Readonly<Record<string, unknown>>[];
}

interface KnownField {
  readonly field: PurchaseField;
  readonly rule: EntryFieldRule;
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
    const pattern = field.pattern === null ? null : compileEntryPattern(field.pattern);
    if (field.pattern !== null && pattern === null) {
      throw new TemplateNotSupportedError(`the purchase field ${field.fieldRef} has a pattern this app cannot read`);
    }
    const rule: EntryFieldRule = {
      type: type.value,
      ...fieldFacts({ ...field, type: type.value }),
      required: field.required,
      pattern,
      minLength: field.minLength,
      maxLength: field.maxLength,
      options: field.options ?? [],
    };
    return { field, rule };
  });
  return { mode: mode.value, fields };
}

function checkUnits(template: PurchaseTemplate, units: number, errors: PurchaseFieldError[]): void {
  const { min, max, step } = template.unitRule;
  const problem = unitsProblem(template.unitRule, units);
  if (problem === 'range') errors.push({ path: 'units', code: 'UNITS_OUT_OF_RANGE', message: `must be a whole number from ${min} to ${max}` });
  if (problem === 'step') errors.push({ path: 'units', code: 'UNITS_STEP', message: `must be ${min} plus a multiple of ${step}` });
}

/** A shared rule's problem in core's words (English, for the CLI and logs; the form words its own). */
function describe(problem: EntryProblem): { code: PurchaseFieldError['code']; message: string } {
  switch (problem.code) {
    case 'required':
      return { code: 'REQUIRED', message: 'required' };
    case 'tooShort':
      return { code: 'TOO_SHORT', message: `at least ${problem.limit} characters` };
    case 'tooLong':
      return { code: 'TOO_LONG', message: `at most ${problem.limit} characters` };
    case 'mobile':
      return { code: 'MOBILE', message: 'a mainland mobile number of 11 digits starting with 1' };
    case 'email':
      return { code: 'EMAIL', message: 'an email address' };
    case 'integer':
      return { code: 'INTEGER', message: 'a whole number' };
    case 'option':
      return { code: 'OPTION', message: 'one of the listed options' };
    case 'pattern':
      return { code: 'PATTERN', message: `expected ${describeFormat(problem.expected)}` };
  }
}

function checkValue(known: KnownField, value: string, path: string, errors: PurchaseFieldError[]): void {
  for (const problem of entryValueProblems(known.rule, value)) {
    if (problem.code === 'option') {
      errors.push(optionError(known.field, value, path));
      continue;
    }
    const { code, message } = describe(problem);
    errors.push({ path, code, message: `${known.field.label || known.field.fieldRef}: ${message}` });
  }
}

const CHARACTER_WORDS: Record<EntryCharacterProblem, string> = {
  replacement: 'a replacement character (U+FFFD: the text was decoded from broken bytes)',
  surrogate: 'a broken UTF-16 character (an unpaired surrogate)',
  noncharacter: 'a Unicode noncharacter',
  control: 'a control character',
};

/**
 * A character no entry holds (shared/entry-characters.ts), before any other rule: broken text in the
 * value as given, control characters in the value as cleaned (cleaning trims a pasted tab or newline).
 */
function characterError(known: KnownField, value: string, path: string): PurchaseFieldError | null {
  const raw = entryCharacterProblem(value);
  const found = raw !== null && raw.problem !== 'control' ? raw : entryCharacterProblem(normaliseEntryValue(known.rule.kind, value));
  if (found === null) return null;
  return { path, code: 'INVALID_CHARACTERS', message: `${known.field.label || known.field.fieldRef}: holds ${CHARACTER_WORDS[found.problem]} at character ${found.position}` };
}

function checkGroup(fields: readonly KnownField[], group: Readonly<Record<string, unknown>>, index: number, errors: PurchaseFieldError[]): void {
  const byRef = new Map(fields.map((known) => [known.field.fieldRef, known]));
  for (const key of Object.keys(group)) {
    if (!byRef.has(key)) errors.push({ path: `purchaseEntries[${index}].${key}`, code: 'UNKNOWN_FIELD', message: 'the template has no such field' });
  }
  for (const known of fields) {
    const path = `purchaseEntries[${index}].${known.field.fieldRef}`;
    const value = Object.hasOwn(group, known.field.fieldRef) ? group[known.field.fieldRef] : undefined;
    if (value === undefined || (typeof value === 'string' && normaliseEntryValue(known.rule.kind, value) === '')) {
      if (known.field.required) errors.push({ path, code: 'REQUIRED', message: `${known.field.label || known.field.fieldRef}: required` });
      continue;
    }
    if (typeof value !== 'string') {
      errors.push({ path, code: 'NOT_A_STRING', message: `${known.field.label || known.field.fieldRef}: every value is text` });
      continue;
    }
    const characters = characterError(known, value, path);
    if (characters !== null) errors.push(characters);
    else checkValue(known, value, path, errors);
  }
}

/**
 * Returns the entries to store and send (normalised: each value cleaned for its field's kind, empty
 * optional values dropped, `[]` for entryMode none), or throws PurchaseValidationError listing every problem at once, or
 * TemplateNotSupportedError.
 */
export function validatePurchase(template: PurchaseTemplate, input: PurchaseInput): Record<string, string>[] {
  const { mode, fields } = understand(template);
  const errors: PurchaseFieldError[] = [];
  checkUnits(template, input.units, errors);
  // A select value may name its option by label (purchase-option-codes.ts): checked and sent as the code.
  const entries = withOptionCodes(template.purchaseFields, input.purchaseEntries ?? []);
  const expected = entryGroupCount(mode, input.units);
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
      const cleaned = typeof value === 'string' ? normaliseEntryValue(known.rule.kind, value) : '';
      if (cleaned !== '') clean[known.field.fieldRef] = cleaned;
    }
    return clean;
  });
}

/** Field refs whose values must never reach a log (interface v1 §5 `sensitive`); top-up accounts are all treated so. */
export function sensitiveValues(entries: readonly Readonly<Record<string, string>>[]): string[] {
  return entries.flatMap((group) => Object.values(group));
}
