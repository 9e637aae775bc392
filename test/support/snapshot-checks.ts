// Shape checks for the product snapshot of interface v1 §2.4, shared by the product detail (contract §4, a
// superset of it) and the product.changed webhook body.
import { expect } from 'vitest';
import { asArray, asRecord, isYuan } from './wire-checks';

export interface SnapshotVariant {
  variantRef: number;
  title: string;
  price: number;
  availability: string;
  inventoryType: string;
  remainingUnits: number | null;
  purchaseSchemaRevision: number;
}

export interface Snapshot {
  productRef: number;
  catalogRef: number;
  brand: { brandRef: number; name: string; imageUrl: string | null } | null;
  availability: string;
  revision: number;
  variants: SnapshotVariant[];
}

const AVAILABILITY = ['available', 'unavailable'];
const INVENTORY = ['tracked', 'unlimited', 'undisclosed'];

export function expectBrand(value: unknown, where: string): Snapshot['brand'] {
  if (value === null) return null;
  const brand = asRecord(value, `${where}.brand`);
  expect(Number.isInteger(brand.brandRef), `${where}.brand.brandRef`).toBe(true);
  expect(typeof brand.name, `${where}.brand.name`).toBe('string');
  if (brand.imageUrl !== null) {
    expect(typeof brand.imageUrl, `${where}.brand.imageUrl`).toBe('string');
    expect(brand.imageUrl as string, `${where}.brand.imageUrl is public HTTPS`).toMatch(/^https:\/\//);
  }
  return brand as Snapshot['brand'];
}

/** Every field of interface v1 §2.4 productSnapshot with its type and the remainingUnits rule. */
export function expectSnapshot(value: unknown, where = 'snapshot'): Snapshot {
  const s = asRecord(value, where);
  expect(Number.isInteger(s.productRef), `${where}.productRef`).toBe(true);
  expect(Number.isInteger(s.catalogRef), `${where}.catalogRef`).toBe(true);
  // brand is optional in 2.4 but the contract always sends it (object or null).
  expect('brand' in s, `${where}.brand present`).toBe(true);
  expectBrand(s.brand, where);
  expect(AVAILABILITY, `${where}.availability`).toContain(s.availability);
  expect(Number.isInteger(s.revision), `${where}.revision`).toBe(true);
  expect(String(s.revision), `${where}.revision is Unix seconds`).toMatch(/^\d{10}$/);
  const variants = asArray(s.variants, `${where}.variants`);
  expect(variants.length, `${where}.variants is not empty`).toBeGreaterThanOrEqual(1);
  const refs = new Set<unknown>();
  variants.forEach((raw, i) => {
    const v = asRecord(raw, `${where}.variants[${i}]`);
    const at = `${where}.variants[${i}]`;
    expect(Number.isInteger(v.variantRef), `${at}.variantRef`).toBe(true);
    refs.add(v.variantRef);
    expect(typeof v.title, `${at}.title`).toBe('string');
    expect(isYuan(v.price), `${at}.price is yuan with <= 2 decimals: ${String(v.price)}`).toBe(true);
    expect(AVAILABILITY, `${at}.availability`).toContain(v.availability);
    expect(INVENTORY, `${at}.inventoryType`).toContain(v.inventoryType);
    expect('remainingUnits' in v, `${at}.remainingUnits present`).toBe(true);
    if (v.inventoryType === 'tracked') {
      expect(Number.isInteger(v.remainingUnits) && (v.remainingUnits as number) >= 0, `${at}.remainingUnits integer >= 0 when tracked`).toBe(true);
    } else {
      expect(v.remainingUnits, `${at}.remainingUnits null when ${String(v.inventoryType)}`).toBeNull();
    }
    expect(Number.isInteger(v.purchaseSchemaRevision), `${at}.purchaseSchemaRevision`).toBe(true);
  });
  expect(refs.size, `${where}.variants have distinct variantRefs`).toBe(variants.length);
  if (variants.length === 1) {
    // A product with one variant is a single-variant product, whose variant is variantRef 0 (interface v1 §2.4).
    expect(asRecord(variants[0], 'variant').variantRef, `${where}: single variant has variantRef 0`).toBe(0);
  }
  return s as unknown as Snapshot;
}
