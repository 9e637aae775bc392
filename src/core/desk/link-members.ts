// A link member as one profile's catalog cache knows it now: names, price, the one supply status
// (shared/merchant/supply-status.ts) and the units left. Read straight from that profile's own
// database; nothing is asked of its merchant (the offers must answer offline, and fast).
import type { Database, Statement } from 'better-sqlite3';
import type { LinkMember, VariantKey } from '../../shared/ipc/views/compare';
import type { MerchantTag } from '../../shared/ipc/views/profiles';
import { variantSupplyStatus } from '../../shared/merchant/supply-status';
import type { MemberFacts } from './fallback-choice';

interface FactsRow {
  name: string;
  product_availability: string;
  removed_at: number | null;
  title: string | null;
  price_fen: number | null;
  availability: string | null;
  inventory_type: string | null;
  remaining_units: number | null;
}

const statements = new WeakMap<Database, Statement<[number, number], FactsRow>>();

function factsStatement(db: Database): Statement<[number, number], FactsRow> {
  let statement = statements.get(db);
  if (statement === undefined) {
    statement = db.prepare<[number, number], FactsRow>(
      `SELECT p.name, p.availability AS product_availability, p.removed_at, v.title, v.price_fen, v.availability, v.inventory_type, v.remaining_units
         FROM products p LEFT JOIN variants v ON v.product_ref = p.product_ref AND v.variant_ref = ?
        WHERE p.product_ref = ?`,
    );
    statements.set(db, statement);
  }
  return statement;
}

/** The member's view (contract LinkMember); a variant the cache does not hold is unknown, without a price. */
export function readLinkMember(db: Database, merchant: MerchantTag, key: VariantKey): LinkMember {
  const row = factsStatement(db).get(key.variantRef, key.productRef);
  const base = { merchant, productRef: key.productRef, variantRef: key.variantRef };
  if (row === undefined) return { ...base, productName: null, variantTitle: null, unitPriceFen: null, supply: 'unknown', remainingUnits: null };
  if (row.price_fen === null || row.availability === null || row.inventory_type === null) {
    return { ...base, productName: row.name, variantTitle: null, unitPriceFen: null, supply: row.removed_at === null ? 'unknown' : 'unavailable', remainingUnits: null };
  }
  const status = variantSupplyStatus(row.product_availability, { availability: row.availability, inventoryType: row.inventory_type, remainingUnits: row.remaining_units });
  return {
    ...base,
    productName: row.name,
    variantTitle: row.title,
    unitPriceFen: row.price_fen,
    // A product the merchant says is gone sells nothing, whatever its last stored variant said.
    supply: row.removed_at !== null ? 'unavailable' : status.kind,
    remainingUnits: row.inventory_type === 'tracked' ? row.remaining_units : null,
  };
}

/**
 * Whether the profile's cache knows the variant (a link is only made between known things): the
 * product is cached, and the variant is among its stored ones once its detail is stored (a product
 * known only from the list has no variants yet, so any variant of it is taken as the buyer names it).
 */
export function holdsVariant(db: Database, productRef: number, variantRef: number): boolean {
  const row = db
    .prepare<[number, number], { revision: number | null; found: number }>(
      'SELECT p.revision, EXISTS (SELECT 1 FROM variants v WHERE v.product_ref = p.product_ref AND v.variant_ref = ?) AS found FROM products p WHERE p.product_ref = ?',
    )
    .get(variantRef, productRef);
  return row !== undefined && (row.revision === null || row.found === 1);
}

export const factsOf = (member: LinkMember, key: VariantKey): MemberFacts => ({ key, unitPriceFen: member.unitPriceFen, supply: member.supply, remainingUnits: member.remainingUnits });
