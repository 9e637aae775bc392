// What applying one product snapshot changed, computed from the stored rows before and after, so
// that notifications (price drop, back in stock, no longer available) do not depend on the
// merchant's changedProperties hints, which do not say which variant changed (interface v1 §6.3).

export interface VariantState {
  readonly title: string;
  readonly priceFen: number;
  /** Raw: an unknown value is kept as received. */
  readonly availability: string;
  readonly inventoryType: string;
  readonly remainingUnits: number | null;
  readonly purchaseSchemaRevision: number;
}

export interface VariantChange {
  readonly variantRef: number;
  /** null: the variant is new. */
  readonly before: VariantState | null;
  /** null: the variant is gone from the list. */
  readonly after: VariantState | null;
  readonly priceChanged: boolean;
  readonly stockChanged: boolean;
  readonly availabilityChanged: boolean;
}

export interface BrandState {
  readonly brandRef: number;
  readonly name: string;
  readonly imageUrl: string | null;
}

export interface ProductChanges {
  /** Product-level availability before (null when the product was new) and after; null when equal. */
  readonly availability: { readonly before: string | null; readonly after: string } | null;
  /** Set when the brand association changed (including cleared by `brand: null`). */
  readonly brand: { readonly before: BrandState | null; readonly after: BrandState | null } | null;
  readonly catalogRefChanged: boolean;
  /** Only variants that were added, removed or changed in some field. */
  readonly variants: readonly VariantChange[];
}

export function sameBrand(a: BrandState | null, b: BrandState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.brandRef === b.brandRef && a.name === b.name && a.imageUrl === b.imageUrl;
}

export function diffVariants(before: ReadonlyMap<number, VariantState>, after: ReadonlyMap<number, VariantState>): VariantChange[] {
  const changes: VariantChange[] = [];
  const refs = new Set<number>([...before.keys(), ...after.keys()]);
  for (const variantRef of [...refs].sort((a, b) => a - b)) {
    const old = before.get(variantRef) ?? null;
    const now = after.get(variantRef) ?? null;
    const priceChanged = old?.priceFen !== now?.priceFen;
    const stockChanged = old?.remainingUnits !== now?.remainingUnits || old?.inventoryType !== now?.inventoryType;
    const availabilityChanged = old?.availability !== now?.availability;
    const otherChanged = old?.title !== now?.title || old?.purchaseSchemaRevision !== now?.purchaseSchemaRevision;
    if (priceChanged || stockChanged || availabilityChanged || otherChanged) {
      changes.push({ variantRef, before: old, after: now, priceChanged, stockChanged, availabilityChanged });
    }
  }
  return changes;
}
