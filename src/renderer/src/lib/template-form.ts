// The purchase template (contract §5) turned into what the order form renders: the entry mode, the
// typed fields, the unit rule. A template this build cannot understand (a new entry mode, a new
// field type, an unreadable pattern) is reported as unsupported rather than guessed at: core refuses
// it too, and a buyer must not fill in a form that cannot be sent.
import {
  classifyEntryMode,
  classifyPurchaseFieldType,
  type EntryMode,
  type PurchaseFieldType,
} from '../../../shared/merchant/known-values';
import type { TemplateView } from '../../../shared/ipc/views/catalog';
import { normaliseEntryValue } from '../../../shared/purchase-entry-normalise';
import { compileEntryPattern, entryGroupCount, fieldFacts, type UnitsRule } from '../../../shared/purchase-entry-rules';
import type { ExpectedFormat } from '../../../shared/purchase-field-format';
import type { FieldKind } from '../../../shared/purchase-field-kind';

export interface FieldModel {
  readonly fieldRef: string;
  readonly label: string;
  readonly type: PurchaseFieldType;
  /** How its values are cleaned, decided once from the template (shared rule, contract §5.1). */
  readonly kind: FieldKind;
  /** What a valid value looks like, shown in its error. */
  readonly expected: ExpectedFormat | null;
  readonly required: boolean;
  /** Anchored: the whole value must match (contract §5). */
  readonly pattern: RegExp | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly placeholder: string | null;
  readonly sensitive: boolean;
}

/** The template's unitRule, as the shared rule checks it. */
export type UnitRule = UnitsRule;

export interface FormModel {
  readonly productRef: number;
  readonly variantRef: number;
  readonly productType: string;
  readonly revision: number;
  readonly entryMode: EntryMode;
  readonly fields: readonly FieldModel[];
  readonly unitRule: UnitRule;
}

export type UnsupportedReason =
  | { readonly reason: 'entryMode'; readonly raw: string }
  | { readonly reason: 'fieldType'; readonly fieldRef: string; readonly raw: string }
  | { readonly reason: 'noOptions'; readonly fieldRef: string }
  | { readonly reason: 'pattern'; readonly fieldRef: string };

export type FormModelResult = { readonly ok: true; readonly model: FormModel } | { readonly ok: false; readonly unsupported: UnsupportedReason };

/** One entry group: `{ fieldRef: value }` as typed (empty strings for untouched fields). */
export type EntryGroup = Record<string, string>;

export function templateToFormModel(template: TemplateView): FormModelResult {
  const mode = classifyEntryMode(template.entryMode);
  if (mode.kind === 'unknown') return { ok: false, unsupported: { reason: 'entryMode', raw: mode.raw } };
  const fields: FieldModel[] = [];
  for (const field of template.purchaseFields) {
    const type = classifyPurchaseFieldType(field.type);
    if (type.kind === 'unknown') return { ok: false, unsupported: { reason: 'fieldType', fieldRef: field.fieldRef, raw: type.raw } };
    const options = field.options ?? [];
    if (type.value === 'select' && options.length === 0) return { ok: false, unsupported: { reason: 'noOptions', fieldRef: field.fieldRef } };
    const pattern = field.pattern === null ? null : compileEntryPattern(field.pattern);
    if (field.pattern !== null && pattern === null) return { ok: false, unsupported: { reason: 'pattern', fieldRef: field.fieldRef } };
    fields.push({
      fieldRef: field.fieldRef,
      label: field.label || field.fieldRef,
      type: type.value,
      ...fieldFacts({ ...field, type: type.value }),
      required: field.required,
      pattern,
      minLength: field.minLength,
      maxLength: field.maxLength,
      options,
      placeholder: field.placeholder,
      sensitive: field.sensitive,
    });
  }
  // A template whose rule admits no unit at all is the merchant's mistake; keep it sane for the UI.
  const step = Math.max(1, template.unitRule.step);
  const min = Math.max(1, template.unitRule.min);
  const max = Math.max(min, template.unitRule.max);
  return {
    ok: true,
    model: {
      productRef: template.productRef,
      variantRef: template.variantRef,
      productType: template.productType,
      revision: template.purchaseSchemaRevision,
      entryMode: mode.value,
      fields,
      unitRule: { min, max, step },
    },
  };
}

/** How many entry groups the form shows: the count core checks (shared rule). */
export function groupCount(mode: EntryMode, units: number): number {
  return entryGroupCount(mode, units);
}

export function emptyGroup(fields: readonly FieldModel[]): EntryGroup {
  const group: EntryGroup = {};
  for (const field of fields) group[field.fieldRef] = '';
  return group;
}

/** The nearest units value the rule allows (for the stepper), clamped to [min, max]. */
export function snapUnits(rule: UnitRule, units: number): number {
  if (!Number.isFinite(units)) return rule.min;
  const clamped = Math.min(rule.max, Math.max(rule.min, Math.round(units)));
  const steps = Math.round((clamped - rule.min) / rule.step);
  const snapped = rule.min + steps * rule.step;
  return snapped > rule.max ? snapped - rule.step : snapped;
}

/**
 * "Paste many accounts": one row per unit, its values in the order of the fields. The rows come from
 * core's batch reader (batch.parsePaste: quotes, commas and newlines inside a value, as in a file).
 */
export function groupsFromRows(rows: readonly (readonly string[])[], fields: readonly FieldModel[]): EntryGroup[] {
  return rows.map((parts) => {
    const group = emptyGroup(fields);
    fields.forEach((field, index) => {
      group[field.fieldRef] = parts[index] ?? '';
    });
    return group;
  });
}

/** The purchaseEntries to send: none → omitted; otherwise each group without its empty values. */
export function buildPurchaseEntries(model: FormModel, groups: readonly EntryGroup[]): Record<string, string>[] | undefined {
  if (model.entryMode === 'none') return undefined;
  return groups.map((group) => {
    const clean: Record<string, string> = {};
    for (const field of model.fields) {
      // Cleaned as core cleans it (shared rule): what the confirmation shows is what is sent.
      const value = normaliseEntryValue(field.kind, group[field.fieldRef] ?? '');
      if (value !== '') clean[field.fieldRef] = value;
    }
    return clean;
  });
}
