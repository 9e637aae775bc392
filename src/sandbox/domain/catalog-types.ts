// The sandbox's own model of a merchant catalog. Money is integer fen; the HTTP layer turns it into
// yuan numbers. These are the merchant's records, not the wire format (see docs/contract.md).

export type ProductType = 'card' | 'topup';
export type Availability = 'available' | 'unavailable';
export type InventoryType = 'tracked' | 'unlimited' | 'undisclosed';
export type EntryMode = 'none' | 'single' | 'perUnit';
export type PurchaseFieldType = 'text' | 'mobile' | 'email' | 'integer' | 'select';

export interface Category {
  catalogRef: number;
  name: string;
  parentRef: number | null;
  sort: number;
}

export interface Brand {
  brandRef: number;
  name: string;
  imageUrl: string | null;
}

export interface PurchaseField {
  fieldRef: string;
  label: string;
  type: PurchaseFieldType;
  required: boolean;
  pattern: string | null;
  minLength: number | null;
  maxLength: number | null;
  options: { value: string; label: string }[] | null;
  placeholder: string | null;
  sensitive: boolean;
}

export interface UnitRule {
  min: number;
  max: number;
  step: number;
}

export interface PurchaseTemplate {
  purchaseSchemaRevision: number;
  entryMode: EntryMode;
  purchaseFields: PurchaseField[];
  unitRule: UnitRule;
}

/** How the sandbox supplies an order of this variant (hidden from the interface). */
export type SupplyBehaviour = 'succeed' | 'needsVerification' | 'fail';

export interface Variant {
  variantRef: number;
  title: string;
  priceFen: number;
  faceValueFen: number | null;
  availability: Availability;
  inventoryType: InventoryType;
  /** Sellable stock when `tracked`; for `undisclosed` the hidden real stock; null when unlimited. */
  remainingUnits: number | null;
  template: PurchaseTemplate;
  supply: SupplyBehaviour;
}

export interface Product {
  productRef: number;
  catalogRef: number;
  name: string;
  productType: ProductType;
  description: string;
  imageUrl: string | null;
  brand: Brand | null;
  availability: Availability;
  /** Last-update time, Unix seconds, strictly increasing per product. */
  revision: number;
  /** Single-variant products have exactly one variant with variantRef 0. */
  variants: Variant[];
}

export interface SeedCatalog {
  categories: Category[];
  products: Product[];
}

export interface SeedCatalogOptions {
  products: number;
  seed: number;
  /** Unix seconds used as the revision base of every seeded product. */
  nowSeconds: number;
}
