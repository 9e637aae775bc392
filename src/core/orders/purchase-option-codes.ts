// Select values named by label or code (contract §7.11 "Filled by label"): before an order's entries are
// checked, each select value that names one option (shared/purchase-option-match.ts) becomes that
// option's code, so what is checked, stored and sent is the code; a value that names none, or several,
// is left as given and its OPTION error names it with the labels the buyer can use. Used by
// validatePurchase, so the dialog, the CLI's --entry, a needs_template intent and every batch row agree.
import type { PurchaseField } from '../../shared/merchant/template';
import { matchOption, optionLabelList } from '../../shared/purchase-option-match';
import type { PurchaseFieldError } from './order-errors';

/** A value longer than this is cut in the error (a misplaced column can put anything there). */
const QUOTED_MAX = 40;

const isSelect = (field: PurchaseField): boolean => field.type === 'select' && field.options !== null && field.options.length > 0;

/** The groups with every select value that names one option replaced by its code; the rest as given. */
export function withOptionCodes(fields: readonly PurchaseField[], groups: readonly Readonly<Record<string, unknown>>[]): Readonly<Record<string, unknown>>[] {
  const selects = fields.filter(isSelect);
  if (selects.length === 0) return [...groups];
  return groups.map((group) => {
    const resolved: Record<string, unknown> = { ...group };
    for (const field of selects) {
      const value = Object.hasOwn(group, field.fieldRef) ? group[field.fieldRef] : undefined;
      if (typeof value !== 'string') continue;
      const match = matchOption(field.options ?? [], value);
      if (match.kind === 'matched') resolved[field.fieldRef] = match.value;
    }
    return resolved;
  });
}

const cut = (value: string): string => ([...value].length > QUOTED_MAX ? `${[...value].slice(0, QUOTED_MAX).join('')}…` : value);

/** The OPTION error of a select value no single option answers to: the value, and which labels there are. */
export function optionError(field: PurchaseField, value: string, path: string): PurchaseFieldError {
  const name = field.label || field.fieldRef;
  const options = field.options ?? [];
  const match = matchOption(options, value);
  const given = cut(value.trim());
  if (match.kind === 'ambiguous') {
    return { path, code: 'OPTION', message: `${name}: "${given}" could be any of ${match.labels.join(', ')}; write the option's whole name`, option: { given, reason: 'ambiguous', labels: [...match.labels] } };
  }
  const labels = optionLabelList(options);
  return { path, code: 'OPTION', message: `${name}: "${given}" is not one of the options (${labels.join(', ')})`, option: { given, reason: 'unknown', labels } };
}
