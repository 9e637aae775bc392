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
  /** Matches, counted up to COUNT_CAP; see totalIsLowerBound. */
  readonly total: number;
  /** More than COUNT_CAP products match: total is COUNT_CAP, to be shown as "10,000+". */
  readonly totalIsLowerBound: boolean;
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

// Known stock semantics only: an unknown inventory type is not claimed to be in stock. The same
// rule fills products.in_stock and stock_price_* (0005-product-stock-summary).
const VARIANT_IN_STOCK = `v.availability = 'available'
  AND (v.inventory_type IN ('unlimited', 'undisclosed') OR (v.inventory_type = 'tracked' AND v.remaining_units > 0))`;

/**
 * "Some variant (in stock, when asked) costs between min and max", decided from the product's
 * lowest and highest such price: the lowest or the highest inside the range proves it, both on one
 * side refutes it. Only a product whose prices strictly span the range reads its variants.
 */
function priceFilter(inStock: boolean, hasMin: boolean, hasMax: boolean): string | null {
  const [low, high] = inStock ? ['p.stock_price_min_fen', 'p.stock_price_max_fen'] : ['p.price_min_fen', 'p.price_max_fen'];
  if (hasMin && hasMax) {
    const variants = inStock ? `${VARIANT_IN_STOCK} AND ` : '';
    return `${low} <= @maxPriceFen AND ${high} >= @minPriceFen AND (${low} >= @minPriceFen OR ${high} <= @maxPriceFen
      OR EXISTS (SELECT 1 FROM variants v WHERE v.product_ref = p.product_ref AND ${variants}v.price_fen BETWEEN @minPriceFen AND @maxPriceFen))`;
  }
  if (hasMin) return `${high} >= @minPriceFen`;
  if (hasMax) return `${low} <= @maxPriceFen`;
  return null;
}

// Without text, and for sorts other than relevance, the index on the sort key drives the query and
// the text match is a set the planner can probe; only relevance needs the FTS rank of every match.
const ORDER_BY: Record<Exclude<ProductSort, 'relevance'>, string> = {
  priceAsc: '(p.price_from_fen IS NULL), p.price_from_fen, p.product_ref',
  priceDesc: 'p.price_from_fen DESC, p.product_ref DESC',
  nameAsc: 'p.name, p.product_ref',
  recentlyChanged: 'p.revision DESC, p.product_ref DESC',
};

// The index that yields each sort order (0001-catalog); named so a broad match can walk it.
const SORT_INDEX: Record<Exclude<ProductSort, 'relevance'>, string> = {
  priceAsc: 'products_price_ascending',
  priceDesc: 'products_price',
  nameAsc: 'products_name',
  recentlyChanged: 'products_revision',
};

/**
 * Above this many text matches a match is "broad" (e.g. "会员"): "relevance" keeps catalog order
 * instead of ranking, since bm25 over tens of thousands of hits costs more than the search budget
 * and says little; other sorts walk their index and probe the match set, which stops after one
 * page instead of sorting every match. The planner, without statistics, would sort.
 */
export const BROAD_MATCH_THRESHOLD = 2000;

/** The largest exact total; beyond it a search reports COUNT_CAP with totalIsLowerBound. */
export const COUNT_CAP = 10_000;

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
  const filters: string[] = [];
  const match = productSearchMatch(searchTerms(query.text ?? ''));
  if (match !== null) params.match = match;
  if (query.catalogRef !== undefined) {
    filters.push('p.catalog_ref IN (SELECT @catalogRef UNION ALL SELECT catalog_ref FROM categories WHERE parent_ref = @catalogRef)');
    params.catalogRef = query.catalogRef;
  }
  if (query.availability !== undefined) {
    filters.push('p.availability = @availability');
    params.availability = query.availability;
  }
  // in_stock already requires the product to be available (0005-product-stock-summary).
  if (query.inStock === true) filters.push('p.in_stock = 1');
  if (query.minPriceFen !== undefined) params.minPriceFen = query.minPriceFen;
  if (query.maxPriceFen !== undefined) params.maxPriceFen = query.maxPriceFen;
  const price = priceFilter(query.inStock === true, query.minPriceFen !== undefined, query.maxPriceFen !== undefined);
  if (price !== null) filters.push(price);
  // Implied by the range, and lets a walk of the price index start at the range: price_from_fen is
  // the lowest variant price (0001 triggers), so a product with a variant within range is there.
  // Only for the page: the count reads products_in_stock_price alone, without the table.
  const pageFilters = query.maxPriceFen !== undefined && price !== null ? [...filters, 'p.price_from_fen <= @maxPriceFen'] : filters;

  // Counting stops after COUNT_CAP + 1 matches: an exact count of a broad search (every in-stock
  // product, a one-character text) reads tens of thousands of rows for a number nobody needs
  // exactly. Removed products have no search document, so a pure text query is counted on the
  // index alone; with filters the count is driven by the match so that it can stop early.
  const counted =
    match !== null && filters.length === 0
      ? countRows(db, `SELECT count(*) AS total FROM (SELECT 1 FROM product_search WHERE product_search MATCH @match LIMIT ${COUNT_CAP + 1})`, params)
      : countRows(db, `SELECT count(*) AS total FROM (SELECT 1 FROM ${fromClause(match, match !== null)} WHERE ${whereClause(match, match !== null, filters)} LIMIT ${COUNT_CAP + 1})`, params);
  const totalIsLowerBound = counted > COUNT_CAP;
  const total = Math.min(counted, COUNT_CAP);

  const sort = query.sort ?? 'relevance';
  const ranked = sort === 'relevance' && match !== null;
  const broad = total > BROAD_MATCH_THRESHOLD;
  const orderBy = sort !== 'relevance' ? ORDER_BY[sort] : match === null ? 'p.product_ref' : broad ? 's.rowid' : 's.rank, s.rowid';
  // A broad result walks the index of its order and stops after one page; the planner, without
  // statistics, would rather collect every match through a filter index and sort them.
  const indexedBy = !broad || ranked ? null : sort === 'relevance' ? 'NOT INDEXED' : `INDEXED BY ${SORT_INDEX[sort]}`;
  const rows = hitStatement(
    db,
    `SELECT p.product_ref, p.catalog_ref, p.name, p.product_type, p.availability, p.brand_name, p.image_url,
            p.price_from_fen, p.revision, p.variant_count, p.in_stock
       FROM ${fromClause(match, ranked, indexedBy)} WHERE ${whereClause(match, ranked, pageFilters)} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`,
  ).all({ ...params, limit, offset });

  return { total, totalIsLowerBound, items: rows.map(toHit) };
}

// Relevance joins the FTS table to read its rank; every other shape asks "is this product in the
// match set?", which lets SQLite walk the sort index and stop after one page.
function fromClause(match: string | null, ranked: boolean, indexedBy: string | null = null): string {
  if (match !== null && ranked) return 'product_search s JOIN products p ON p.product_ref = s.rowid';
  return indexedBy === null ? 'products p' : `products p ${indexedBy}`;
}

function whereClause(match: string | null, ranked: boolean, filters: readonly string[]): string {
  const where = ['p.removed_at IS NULL', ...filters];
  if (match !== null) {
    where.push(ranked ? 'product_search MATCH @match' : 'p.product_ref IN (SELECT rowid FROM product_search WHERE product_search MATCH @match)');
  }
  return where.join(' AND ');
}

function countRows(db: Database, sql: string, params: Params): number {
  return countStatement(db, sql).get(params)?.total ?? 0;
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
