// The order being placed, in one model: what the quantity box holds (exactly as typed), the entry
// groups, and — derived from those and the unit price, never stored beside them — the units, the
// total, the errors and the order that would be sent. The box shows the model's text, the total is
// computed from the same parse that is sent, and a value outside the template's unitRule is an error
// that blocks sending: nothing is clamped, padded or rounded behind the buyer's back.
import { readUnitsText } from '../../../shared/units-text';
import { validateForm, validateUnits, type FieldError, type UnitsError } from './purchase-validation';
import { buildPurchaseEntries, emptyGroup, groupCount, snapUnits, type EntryGroup, type FormModel, type UnitRule } from './template-form';

export interface OrderDraft {
  /** The quantity box's text, as typed or pasted. */
  readonly unitsText: string;
  /**
   * Every entry group typed so far. The form shows the first `groupCount` of them, so lowering the
   * units and raising them again does not throw away accounts already typed.
   */
  readonly groups: readonly EntryGroup[];
}

export type UnitsTextError = UnitsError | { readonly code: 'unitsEmpty' } | { readonly code: 'unitsNotWhole' };

export type UnitsParse = { readonly ok: true; readonly units: number } | { readonly ok: false; readonly error: UnitsTextError };

/**
 * The units the text says, or why it says none (shared/units-text.ts, the batch file's units column
 * reads the same way): anything but a whole number is said so rather than guessed at.
 */
export function parseUnitsText(text: string, rule: UnitRule): UnitsParse {
  const reading = readUnitsText(text);
  if (!reading.ok) {
    if (reading.problem === 'empty') return { ok: false, error: { code: 'unitsEmpty' } };
    if (reading.problem === 'notWhole') return { ok: false, error: { code: 'unitsNotWhole' } };
    return { ok: false, error: { code: 'unitsRange', min: rule.min, max: rule.max, step: rule.step } };
  }
  const ruleError = validateUnits(rule, reading.units);
  return ruleError === null ? { ok: true, units: reading.units } : { ok: false, error: ruleError };
}

export function newDraft(rule: UnitRule): OrderDraft {
  return { unitsText: String(rule.min), groups: [] };
}

export function withUnitsText(draft: OrderDraft, unitsText: string): OrderDraft {
  return { ...draft, unitsText };
}

/**
 * The stepper buttons: one step from what the box says (from the nearest allowed value when it says
 * nothing valid), never past the rule. These are explicit moves the buyer makes, not corrections.
 */
export function stepUnits(draft: OrderDraft, rule: UnitRule, direction: 1 | -1): OrderDraft {
  const parsed = parseUnitsText(draft.unitsText, rule);
  const cleaned = draft.unitsText.normalize('NFKC').trim();
  const typed = /^\d{1,9}$/.test(cleaned) ? Number(cleaned) : null;
  const base = parsed.ok ? parsed.units : snapUnits(rule, typed ?? rule.min);
  const next = parsed.ok ? snapUnits(rule, base + direction * rule.step) : base;
  return { ...draft, unitsText: String(next) };
}

/** On leaving the box: a valid value is written in its plain form ("０５" → "5"); anything else stays as typed. */
export function canonicalUnitsText(draft: OrderDraft, rule: UnitRule): OrderDraft {
  const parsed = parseUnitsText(draft.unitsText, rule);
  return parsed.ok && draft.unitsText !== String(parsed.units) ? { ...draft, unitsText: String(parsed.units) } : draft;
}

export function withFieldValue(draft: OrderDraft, model: FormModel, index: number, fieldRef: string, value: string): OrderDraft {
  const groups = draft.groups.slice();
  while (groups.length <= index) groups.push(emptyGroup(model.fields));
  groups[index] = { ...groups[index], [fieldRef]: value };
  return { ...draft, groups };
}

/** "Paste many accounts": the pasted groups replace the typed ones and the units follow their count. */
export function withPastedGroups(pasted: readonly EntryGroup[]): OrderDraft {
  return { unitsText: String(pasted.length), groups: pasted.map((group) => ({ ...group })) };
}

/** How many groups the form shows: for perUnit, the units when they are valid, else what was shown last. */
export function visibleGroups(draft: OrderDraft, model: FormModel): EntryGroup[] {
  const parsed = parseUnitsText(draft.unitsText, model.unitRule);
  // While the quantity is being edited (or is wrong) the groups already typed stay on screen.
  const units = parsed.ok ? parsed.units : Math.max(1, Math.min(draft.groups.length, model.unitRule.max));
  const count = groupCount(model.entryMode, units);
  const shown = draft.groups.slice(0, count).map((group) => ({ ...emptyGroup(model.fields), ...group }));
  while (shown.length < count) shown.push(emptyGroup(model.fields));
  return shown;
}

/**
 * A new reference for one review of the order (22 random base64url characters). The place call carries
 * it: sending the same review again — a retry after a lost answer — answers the order already placed.
 */
export function newDraftRef(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What would be sent, complete: the confirmation step shows exactly this and the place call sends it. */
export interface OrderToConfirm {
  readonly productRef: number;
  readonly variantRef: number;
  readonly units: number;
  readonly unitPriceFen: number;
  readonly totalFen: number;
  readonly purchaseEntries: Record<string, string>[] | undefined;
}

export interface DraftErrors {
  /** The quantity box's problem: empty, not a whole number, outside the rule's range or steps. */
  readonly units: UnitsTextError | null;
  /** One map per entry group shown: fieldRef → its first problem. */
  readonly groups: readonly Readonly<Record<string, FieldError>>[];
  readonly count: number;
}

export interface DraftState {
  readonly units: UnitsParse;
  readonly groups: EntryGroup[];
  readonly errors: DraftErrors;
  /** Units × unit price from the same parse that is sent; null while the units are not valid. */
  readonly totalFen: number | null;
  /** The order to confirm, or null while anything is wrong (nothing can be sent then). */
  readonly order: OrderToConfirm | null;
}

export function evaluateDraft(draft: OrderDraft, model: FormModel, unitPriceFen: number | null): DraftState {
  const units = parseUnitsText(draft.unitsText, model.unitRule);
  const groups = visibleGroups(draft, model);
  const fields = validateForm(model, units.ok ? units.units : model.unitRule.min, groups);
  // The units error the buyer sees is the parse's own (empty, not whole, range, step).
  const fieldCount = fields.count - (fields.units === null ? 0 : 1);
  const errors: DraftErrors = { units: units.ok ? null : units.error, groups: fields.groups, count: fieldCount + (units.ok ? 0 : 1) };
  const total = units.ok && unitPriceFen !== null ? units.units * unitPriceFen : null;
  const totalFen = total !== null && Number.isSafeInteger(total) ? total : null;
  const order: OrderToConfirm | null =
    units.ok && errors.count === 0 && unitPriceFen !== null && totalFen !== null
      ? {
          productRef: model.productRef,
          variantRef: model.variantRef,
          units: units.units,
          unitPriceFen,
          totalFen,
          purchaseEntries: buildPurchaseEntries(model, groups),
        }
      : null;
  return { units, groups, errors, totalFen, order };
}
