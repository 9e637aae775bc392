// An order's entries as the buyer reads them (contract §7.11): a value picked from the template's options
// by the label kept with it; for an order kept before labels were, by the cached template's label while it
// still lists that option, else its code, marked as the merchant's code. `value` stays what was sent.
import type { PickedOption, RechargedEntry } from '../../shared/ipc/views/orders';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import { isOptionField, optionLabelOf } from '../../shared/purchase-option-labels';
import { maskRechargedAccount } from '../../shared/recharged-account';
import type { StoredEntries } from '../orders/stored-entries';

/** The entries read for the views: the groups as sent and, per group, its picked options by fieldRef. */
export interface ReadEntries {
  readonly groups: Record<string, string>[];
  readonly picked: ReadonlyMap<string, PickedOption>[];
}

function pickedOf(stored: StoredEntries, index: number, fieldRef: string, value: string, template: () => PurchaseTemplate | null): PickedOption | null {
  if (stored.optionLabels !== null) {
    const label = stored.optionLabels[index]?.[fieldRef];
    return label === undefined ? null : { fieldRef, label, merchantCode: null };
  }
  // Kept before labels were: only the cached template can say the field was a list, and what it is called.
  const field = template()?.purchaseFields.find((f) => f.fieldRef === fieldRef);
  if (field === undefined || !isOptionField(field)) return null;
  const label = optionLabelOf(field, value);
  return { fieldRef, label, merchantCode: label === null ? value : null };
}

/** `template` is asked only for an order kept before labels were (and may be memoised by the caller). */
export function readEntries(stored: StoredEntries, template: () => PurchaseTemplate | null): ReadEntries {
  return {
    groups: stored.groups,
    picked: stored.groups.map((group, index) => {
      const picked = new Map<string, PickedOption>();
      for (const [fieldRef, value] of Object.entries(group)) {
        const option = pickedOf(stored, index, fieldRef, value, template);
        if (option !== null) picked.set(fieldRef, option);
      }
      return picked;
    }),
  };
}

/** The list's account: the first group's typed values masked; its picked options apart, by label. */
export function listedAccount(entries: ReadEntries | null): { rechargedAccountMasked: string | null; pickedOptions: PickedOption[] } {
  if (entries === null) return { rechargedAccountMasked: null, pickedOptions: [] };
  const first = entries.picked[0] ?? new Map<string, PickedOption>();
  return { rechargedAccountMasked: maskRechargedAccount(entries.groups, (fieldRef) => first.has(fieldRef)), pickedOptions: [...first.values()] };
}

/** The detail's entries in full, each with its field's label (from `fieldLabels`, else its fieldRef). */
export function detailEntries(entries: ReadEntries, fieldLabels: ReadonlyMap<string, string>): RechargedEntry[][] {
  return entries.groups.map((group, index) =>
    Object.entries(group).map(([fieldRef, value]) => ({ fieldRef, label: fieldLabels.get(fieldRef) ?? fieldRef, value, picked: entries.picked[index]?.get(fieldRef) ?? null })),
  );
}
