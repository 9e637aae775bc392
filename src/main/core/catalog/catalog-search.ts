// Search over the offline catalog cache: Chinese-aware full text (any substring of the product
// name, brand, or "name + variant title"; see core/db/product-search-index.ts for how 1–2
// character terms still use the index) plus filters and sorting. Only named operations leave
// this file; the SQL is assembled from fixed fragments, every value is a bound parameter.
import type { Database, Statement } from 'better-sqlite3';
import { productSearchMatch } from '../db/product-search-index';
import { searchTerms } from '../db/search-text';

export type ProductSort = 'relevance' | 'priceAsc' | 'priceDesc' | 'nameAsc' | 'recentlyChanged';

export interface ProductSearchQuery {
  /** Free text; whitespace separates terms that must all match. Empty or absent: no text filter. */
  readonly text?: string;
  /** A category; a parent category includes its children. */
  readonly catalogRef?: number;
  /** Raw product availability to match exactly ("available", "unavailable", or an unknown value). */
  readonly availability?: string;
  /** Only products that can be bought now: available, with a variant that is available and in stock. */
  readonly inStock?: boolean;
  /** Price range in fen, inclusive, on the same variant that satisfies inStock. */
  readonly minPriceFen?: number;
  readonly maxPriceFen?: number;
  readonly sort?: ProductSort;
  readonly limit?: number;
  readonly offset?: number;
}

export interface ProductSearchHit {
  readonly productRef: number;
  readonly catalogRef: number;
  readonly name: string;
  readonly productType: string;
  readonly availability: string;
  readonly brandName: string | null;
  readonly imageUrl: string | null;
  readonly priceFromFen: number | null;
  readonly variantCount: number;
  readonly inStock: boolean;
  readonly revision: number | null;
}

export interface ProductSearchResult {
  readonly total: number;
  readonly items: readonly ProductSearchHit[];
}

export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_SEARCH_LIMIT = 200;

interface HitRow {
  product_ref: number;
  catalog_ref: number;
  name: string;
  product_type: string;
  availability: string;
  brand_name: string | null;
  image_url: string | null;
  price_from_fen: number | null;
  variant_count: number;
  in_stock: number;
  revision: number | null;
}

type Params = Record<string, string | number>;

// Known stock semantics only: an unknown inventory type is not claimed to be in stock.
const VARIANT_IN_STOCK = `v.availability = 'available'
  AND (v.inventory_type IN ('unlimited', 'undisclosed') OR (v.inventory_type = 'tracked' AND v.remaining_units > 0))`;

const ORDER_BY: Record<ProductSort, { withText: string; withoutText: string }> = {
  relevance: { withText: 's.rank, p.product_ref', withoutText: 'p.product_ref' },
  priceAsc: { withText: 'p.price_from_fen IS NULL, p.price_from_fen, p.product_ref', withoutText: 'p.price_from_fen IS NULL, p.price_from_fen, p.product_ref' },
  priceDesc: { withText: 'p.price_from_fen DESC, p.product_ref', withoutText: 'p.price_from_fen DESC, p.product_ref' },
  nameAsc: { withText: 'p.name, p.product_ref', withoutText: 'p.name, p.product_ref' },
  recentlyChanged: { withText: 'p.revision DESC, p.product_ref', withoutText: 'p.revision DESC, p.product_ref' },
};

// Query shapes are few (one per combination of filters), so each is prepared once per database.
function statementCache<Row>(): (db: Database, sql: string) => Statement<Params, Row> {
  const perDatabase = new WeakMap<Database, Map<string, Statement<Params, Row>>>();
  return (db, sql) => {
    let statements = perDatabase.get(db);
    if (!statements) {
      statements = new Map();
      perDatabase.set(db, statements);
    }
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<Params, Row>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

const countStatement = statementCache<{ total: number }>();
const hitStatement = statementCache<HitRow>();

export function searchProducts(db: Database, query: ProductSearchQuery): ProductSearchResult {
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const offset = query.offset ?? 0;
  assertInteger('limit', limit, 1, MAX_SEARCH_LIMIT);
  assertInteger('offset', offset, 0, Number.MAX_SAFE_INTEGER);
  if (query.minPriceFen !== undefined) assertInteger('minPriceFen', query.minPriceFen, 0, Number.MAX_SAFE_INTEGER);
  if (query.maxPriceFen !== undefined) assertInteger('maxPriceFen', query.maxPriceFen, 0, Number.MAX_SAFE_INTEGER);
  if (query.catalogRef !== undefined) assertInteger('catalogRef', query.catalogRef, 0, Number.MAX_SAFE_INTEGER);

  const params: Params = {};
  const where = ['p.removed_at IS NULL'];
  const match = productSearchMatch(searchTerms(query.text ?? ''));
  const from = match === null ? 'products p' : 'product_search s JOIN products p ON p.product_ref = s.rowid';
  if (match !== null) {
    where.push('product_search MATCH @match');
    params.match = match;
  }
  if (query.catalogRef !== undefined) {
    where.push('(p.catalog_ref = @catalogRef OR p.catalog_ref IN (SELECT catalog_ref FROM categories WHERE parent_ref = @catalogRef))');
    params.catalogRef = query.catalogRef;
  }
  if (query.availability !== undefined) {
    where.push('p.availability = @availability');
    params.availability = query.availability;
  }
  const variantConditions: string[] = [];
  if (query.inStock === true) {
    where.push("p.availability = 'available'");
    variantConditions.push(VARIANT_IN_STOCK);
  }
  if (query.minPriceFen !== undefined) {
    variantConditions.push('v.price_fen >= @minPriceFen');
    params.minPriceFen = query.minPriceFen;
  }
  if (query.maxPriceFen !== undefined) {
    variantConditions.push('v.price_fen <= @maxPriceFen');
    params.maxPriceFen = query.maxPriceFen;
  }
  if (variantConditions.length > 0) {
    where.push(`EXISTS (SELECT 1 FROM variants v WHERE v.product_ref = p.product_ref AND ${variantConditions.join(' AND ')})`);
  }

  const whereSql = where.join(' AND ');
  const orders = ORDER_BY[query.sort ?? 'relevance'];
  const orderBy = match === null ? orders.withoutText : orders.withText;

  const counted = countStatement(db, `SELECT count(*) AS total FROM ${from} WHERE ${whereSql}`).get(params);
  const rows = hitStatement(
    db,
    `SELECT p.product_ref, p.catalog_ref, p.name, p.product_type, p.availability, p.brand_name, p.image_url,
            p.price_from_fen, p.revision,
            (SELECT count(*) FROM variants v WHERE v.product_ref = p.product_ref) AS variant_count,
            p.availability = 'available' AND EXISTS (SELECT 1 FROM variants v WHERE v.product_ref = p.product_ref AND ${VARIANT_IN_STOCK}) AS in_stock
       FROM ${from} WHERE ${whereSql} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`,
  ).all({ ...params, limit, offset });

  return { total: counted?.total ?? 0, items: rows.map(toHit) };
}

function toHit(row: HitRow): ProductSearchHit {
  return {
    productRef: row.product_ref,
    catalogRef: row.catalog_ref,
    name: row.name,
    productType: row.product_type,
    availability: row.availability,
    brandName: row.brand_name,
    imageUrl: row.image_url,
    priceFromFen: row.price_from_fen,
    variantCount: row.variant_count,
    inStock: row.in_stock === 1,
    revision: row.revision,
  };
}

function assertInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer between ${min} and ${max}, got ${value}`);
  }
}
