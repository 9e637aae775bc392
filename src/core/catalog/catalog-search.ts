// Search over the offline catalog cache: Chinese-aware full text (any substring of the product
// name, brand, or "name + variant title"; see core/db/product-search-index.ts for how 1–2
// character terms still use the index) plus filters and sorting. Only named operations leave
// this file; the SQL is assembled from fixed fragments, every value is a bound parameter.
import type { Database, Statement } from 'better-sqlite3';
import { productSearchMatch, productSearchRanking } from '../db/product-search-index';
import { searchTerms } from '../db/search-text';
import { priceRangeProblem } from '../../shared/price-range';
import { detailState } from './detail-state';
import { hasListOnlyProducts, inStockRow, inStockSet, priceBounds } from './list-only-search';
import type { DetailState } from '../../shared/ipc/views/catalog';

export type ProductSort = 'relevance' | 'priceAsc' | 'priceDesc' | 'nameAsc' | 'recentlyChanged';

export interface ProductSearchQuery {
  /** Free text; whitespace separates terms that must all match. Empty or absent: no text filter. */
  readonly text?: string;
  /** A category; a parent category includes its children. */
  readonly catalogRef?: number;
  /** Raw product availability to match exactly ("available", "unavailable", or an unknown value). */
  readonly availability?: string;
  /**
   * Only products that can be bought now: available, with a variant that is available and in stock;
   * and available products known only from the list, whose stock is not known yet (list-only-search.ts).
   */
  readonly inStock?: boolean;
  /**
   * Price range in fen, inclusive, on the same variant that satisfies inStock; min must not exceed
   * max. With a bound set (or inStock), a hit's price and the price sorts are those of its cheapest
   * matching variant (matchedPrice), not of the product's cheapest variant. A product known only
   * from the list is priced by the list's priceFrom.
   */
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
  /** The lowest price among the variants the price bounds and inStock match; without them, of all variants. */
  readonly priceFromFen: number | null;
  /** The stored variants; for a listOnly hit, the list's variantCount (0 when not known). */
  readonly variantCount: number;
  /** False for a listOnly hit: its stock is not known yet (see detailState). */
  readonly inStock: boolean;
  readonly revision: number | null;
  /** listOnly: only the catalog list is stored (no variants, no stock); stale: the list names a newer revision. */
  readonly detailState: DetailState;
}

export interface ProductSearchResult {
  /** Matches, counted up to COUNT_CAP; see totalIsLowerBound. */
  readonly total: number;
  /** More than COUNT_CAP products match: total is COUNT_CAP, to be shown as "10,000+". */
  readonly totalIsLowerBound: boolean;
  readonly items: readonly ProductSearchHit[];
}

const DEFAULT_SEARCH_LIMIT = 50;
const MAX_SEARCH_LIMIT = 200;

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
  listed_revision: number | null;
}

type Params = Record<string, string | number>;

// Known stock semantics only: an unknown inventory type is not claimed to be in stock. The same
// rule fills products.in_stock and stock_price_* (0005-product-stock-summary).
function variantInStock(alias: 'v' | 'w'): string {
  return `${alias}.availability = 'available'
  AND (${alias}.inventory_type IN ('unlimited', 'undisclosed') OR (${alias}.inventory_type = 'tracked' AND ${alias}.remaining_units > 0))`;
}
const VARIANT_IN_STOCK = variantInStock('v');

/**
 * "Some variant (in stock, when asked) costs between min and max", decided from the product's
 * lowest and highest such price: the lowest or the highest inside the range proves it, both on one
 * side refutes it. Only a product whose prices strictly span the range reads its variants.
 */
function priceFilter(inStock: boolean, hasMin: boolean, hasMax: boolean): string | null {
  const [low, high] = priceBounds(inStock);
  if (hasMin && hasMax) {
    const variants = inStock ? `${VARIANT_IN_STOCK} AND ` : '';
    return `${low} <= @maxPriceFen AND ${high} >= @minPriceFen AND (${low} >= @minPriceFen OR ${high} <= @maxPriceFen
      OR EXISTS (SELECT 1 FROM variants v WHERE v.product_ref = p.product_ref AND ${variants}v.price_fen BETWEEN @minPriceFen AND @maxPriceFen))`;
  }
  if (hasMin) return `${high} >= @minPriceFen`;
  if (hasMax) return `${low} <= @maxPriceFen`;
  return null;
}

/**
 * The products priceFilter accepts without reading variants: the lowest or the highest price lies
 * in the range. A subset of priceFilter's matches, so more than COUNT_CAP of them settles a count.
 */
function provenPriceFilter(inStock: boolean): string {
  const [low, high] = priceBounds(inStock);
  return `(${low} BETWEEN @minPriceFen AND @maxPriceFen OR ${high} BETWEEN @minPriceFen AND @maxPriceFen)`;
}

/**
 * With a price bound, the price of the product's cheapest variant within the bounds (in stock, when
 * asked): what its row shows and what the price sorts order by, since "from ¥5.78" under a ¥50–100
 * filter names a variant the filter did not match. The product's lowest such price is it when it is
 * at or above the minimum (the filter already holds it at or below the maximum); only a product
 * with cheaper variants below the minimum reads its variants. In stock only without a bound: the
 * cheapest in-stock variant. Null without either (the product's cheapest variant, price_from_fen).
 */
function matchedPrice(query: ProductSearchQuery): string | null {
  const hasMin = query.minPriceFen !== undefined;
  // "In stock only" alone: the cheapest in-stock variant, not a sold-out cheaper one.
  const [low] = priceBounds(query.inStock === true);
  if (!hasMin && query.maxPriceFen === undefined) return query.inStock === true ? low : null;
  if (!hasMin) return low;
  const variants = query.inStock === true ? `${VARIANT_IN_STOCK} AND ` : '';
  const upTo = query.maxPriceFen === undefined ? '' : ' AND v.price_fen <= @maxPriceFen';
  return `(CASE WHEN ${low} >= @minPriceFen THEN ${low}
    ELSE (SELECT min(v.price_fen) FROM variants v WHERE v.product_ref = p.product_ref AND ${variants}v.price_fen >= @minPriceFen${upTo}) END)`;
}

/**
 * A broad search ordered by the matched price (matchedPrice): walks the variants by price from the
 * bound, in the sort's direction, keeping only each product's matched variant (its cheapest within
 * the bounds, in stock when asked; the lowest variant_ref on a tie), so every product appears once,
 * at its matched price, and the walk stops after one page. Sorting every match by the computed price
 * instead read tens of thousands of rows (100–500 ms over 100,000 products).
 */
function matchedPriceWalk(query: ProductSearchQuery, sort: 'priceAsc' | 'priceDesc', sets: readonly ((ref: string) => string)[], hasText: boolean): string {
  const inBounds = (alias: 'v' | 'w'): string =>
    [
      query.inStock === true ? `(${variantInStock(alias)})` : null,
      query.minPriceFen === undefined ? null : `${alias}.price_fen >= @minPriceFen`,
      query.maxPriceFen === undefined ? null : `${alias}.price_fen <= @maxPriceFen`,
    ]
      .filter((condition) => condition !== null)
      .join(' AND ');
  const where = [
    inBounds('v'),
    `NOT EXISTS (SELECT 1 FROM variants w WHERE w.product_ref = v.product_ref AND ${inBounds('w')}
      AND (w.price_fen < v.price_fen OR (w.price_fen = v.price_fen AND w.variant_ref < v.variant_ref)))`,
    'p.removed_at IS NULL',
    ...sets.map((set) => set('p.product_ref + 0')),
  ];
  if (hasText) where.push('p.product_ref IN (SELECT rowid FROM product_search WHERE product_search MATCH @match)');
  const direction = sort === 'priceAsc' ? '' : ' DESC';
  return `SELECT ${selectColumns('v.price_fen')} FROM variants v INDEXED BY variants_price JOIN products p ON p.product_ref = v.product_ref
    WHERE ${where.join(' AND ')} ORDER BY v.price_fen${direction}, v.product_ref${direction} LIMIT @limit OFFSET @offset`;
}

/** The price orders on the matched price (matchedPrice), for a search with a price bound. */
function matchedOrderBy(sort: 'priceAsc' | 'priceDesc', matched: string): string {
  return sort === 'priceAsc' ? `${matched}, p.product_ref` : `${matched} DESC, p.product_ref DESC`;
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
 * instead of ranking, since bm25 costs about 7 µs per hit on a 100,000-product cache (2,000 hits
 * alone took the whole 15 ms search budget) and says little about a short, common term; other sorts
 * walk their index and probe the match set, which stops after one page instead of sorting every
 * match. The planner, without statistics, would sort.
 */
export const BROAD_MATCH_THRESHOLD = 1000;

/**
 * Relevance puts the products whose name equals the query first, then those whose name starts with
 * it (in characters, full pinyin or initials: productSearchRanking), then the rest; each tier by FTS
 * rank (a narrow match) or catalog order (a broad one). Both sets come from the index.
 */
const RANK_TIERS = `(s.rowid + 0 NOT IN (SELECT rowid FROM product_search WHERE product_search MATCH @exact)),
  (s.rowid + 0 NOT IN (SELECT rowid FROM product_search WHERE product_search MATCH @prefix))`;

/**
 * A broad match (over BROAD_MATCH_THRESHOLD) in relevance order: the names equal to the query, then
 * those starting with it, then the rest, each in catalog order. Sorting every match by tier read and
 * sorted tens of thousands of rows; each tier here is its own FTS expression (the earlier tiers taken
 * out with NOT), read in rowid order and stopped after the page, a tier wholly before the page
 * only counted (up to the offset).
 */
function broadTieredPage(
  db: Database,
  filtered: Filtered,
  ranking: { readonly exact: string; readonly prefix: string },
  columns: string,
  params: Params,
  limit: number,
  offset: number,
): HitRow[] {
  const match = filtered.match ?? '';
  const tiers = [`(${match}) AND ${ranking.exact}`, `((${match}) AND ${ranking.prefix}) NOT ${ranking.exact}`, `(${match}) NOT ${ranking.prefix}`];
  const from = `product_search s JOIN products p ON p.product_ref = s.rowid WHERE ${textWhere(filtered, filtered.rows)}`;
  const rows: HitRow[] = [];
  let skip = offset;
  for (const tier of tiers) {
    const need = limit - rows.length;
    if (need === 0) break;
    if (skip > 0) {
      const before = countRows(db, `SELECT count(*) AS total FROM (SELECT 1 FROM ${from} LIMIT @skip)`, { ...params, match: tier, skip });
      if (before < skip) {
        skip -= before;
        continue;
      }
    }
    rows.push(...hitStatement(db, `SELECT ${columns} FROM ${from} ORDER BY s.rowid LIMIT @limit OFFSET @offset`).all({ ...params, match: tier, limit: need, offset: skip }));
    skip = 0;
  }
  return rows;
}

/** Then, in a narrow result, the products matching in their own words before those matching only by category. */
const NAMED_TIER = '(s.rowid + 0 NOT IN (SELECT rowid FROM product_search WHERE product_search MATCH @named))';

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
const pageStatement = statementCache<HitRow & { total: number }>();

export function searchProducts(db: Database, query: ProductSearchQuery): ProductSearchResult {
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const offset = query.offset ?? 0;
  assertInteger('limit', limit, 1, MAX_SEARCH_LIMIT);
  assertInteger('offset', offset, 0, Number.MAX_SAFE_INTEGER);
  if (query.minPriceFen !== undefined) assertInteger('minPriceFen', query.minPriceFen, 0, Number.MAX_SAFE_INTEGER);
  if (query.maxPriceFen !== undefined) assertInteger('maxPriceFen', query.maxPriceFen, 0, Number.MAX_SAFE_INTEGER);
  // The same rule as catalog.search's schema (shared/price-range.ts): an empty range is a mistake.
  if (priceRangeProblem(query.minPriceFen, query.maxPriceFen) !== null) {
    throw new RangeError(`minPriceFen must not exceed maxPriceFen, got ${query.minPriceFen} > ${query.maxPriceFen}`);
  }
  if (query.catalogRef !== undefined) assertInteger('catalogRef', query.catalogRef, 0, Number.MAX_SAFE_INTEGER);

  const params: Params = {};
  // Category, stock and availability are tested as sets of product_ref read from covering indexes
  // (named: with ANALYZE statistics the planner scanned the whole table for an IN list of categories):
  // a product_ref is on every FTS row and every sort-index entry, so a search can reject a
  // candidate without reading its (about 1 KB) products row. Reading that row per candidate cost
  // a few µs each and dominated every broad text search with a narrow filter.
  const sets: ((ref: string) => string)[] = [];
  const filters: string[] = [];
  const terms = searchTerms(query.text ?? '');
  const match = productSearchMatch(terms);
  if (match !== null) params.match = match;
  if (query.catalogRef !== undefined) {
    sets.push(
      (ref) => `${ref} IN (SELECT c.product_ref FROM products c INDEXED BY products_catalog_ref WHERE c.removed_at IS NULL
        AND c.catalog_ref IN (SELECT @catalogRef UNION ALL SELECT catalog_ref FROM categories WHERE parent_ref = @catalogRef))`,
    );
    params.catalogRef = query.catalogRef;
  }
  if (query.availability !== undefined) {
    // Nearly every product is 'available', so that value is tested against the few others (two
    // range seeks; `<>` cannot seek) rather than against a set of almost the whole catalog.
    sets.push((ref) =>
      query.availability === 'available'
        ? `${ref} NOT IN (SELECT a.product_ref FROM products a INDEXED BY products_availability WHERE a.removed_at IS NULL AND a.availability < @availability
             UNION ALL SELECT a.product_ref FROM products a INDEXED BY products_availability WHERE a.removed_at IS NULL AND a.availability > @availability)`
        : `${ref} IN (SELECT a.product_ref FROM products a INDEXED BY products_availability WHERE a.removed_at IS NULL AND a.availability = @availability)`,
    );
    params.availability = query.availability;
  }
  // in_stock already requires the product to be available (0005-product-stock-summary). Every
  // candidate is a listed product whose in_stock is 0 or 1, so "not among the out-of-stock ones"
  // is "in stock", and the out-of-stock products are the small side.
  // Products known only from the list change what "in stock" and a matched price walk read; asked
  // only when either is in the query (one probe of a small partial index).
  const listOnly = (query.inStock === true || query.minPriceFen !== undefined || query.maxPriceFen !== undefined) && hasListOnlyProducts(db);
  if (query.inStock === true) sets.push((ref) => inStockSet(ref, listOnly));
  if (query.minPriceFen !== undefined) params.minPriceFen = query.minPriceFen;
  if (query.maxPriceFen !== undefined) params.maxPriceFen = query.maxPriceFen;
  const price = priceFilter(query.inStock === true, query.minPriceFen !== undefined, query.maxPriceFen !== undefined);
  if (price !== null) filters.push(price);
  // Implied by the range, and lets a walk of the price index start at the range: price_from_fen is
  // the lowest variant price (0001 triggers), so a product with a variant within range is there.
  // Only for the page: the count reads products_in_stock_price alone, without the table.
  const pageFilters = query.maxPriceFen !== undefined && price !== null ? [...filters, 'p.price_from_fen <= @maxPriceFen'] : filters;
  const filtered: Filtered = { match, sets, rows: filters, listOnly };

  // Counting stops after COUNT_CAP + 1 matches: an exact count of a broad search (every in-stock
  // product, a one-character text) reads tens of thousands of rows for a number nobody needs
  // exactly. Removed products have no search document, so a text query without a price filter is
  // counted on the FTS index and the filter sets alone; a price filter needs the products row.
  const sort = query.sort ?? 'relevance';
  const matched = matchedPrice(query);
  const columns = selectColumns(matched);
  let counted: number | undefined;
  if (match !== null && filters.length > 0 && sort !== 'relevance') {
    // Text with a price filter reads the products row of every match to count them anyway, so
    // the same pass keeps their sort key and yields the page too, unless there are more than
    // COUNT_CAP matches (then the page needs all of them, and walks the sort index instead).
    // More than COUNT_CAP text matches, of which more than COUNT_CAP are proven by price alone,
    // settles that cheaply before the pass.
    const settled = hasRange(query) && textCount(db, filtered, params) > COUNT_CAP ? provenCount(db, filtered, params, query) : 0;
    if (settled > COUNT_CAP) counted = settled;
    else {
      const page = sortedTextPage(db, filtered, sortKey(sort, matched), columns, params, limit, offset);
      if (page.total <= COUNT_CAP && (page.items.length > 0 || offset === 0)) return page;
      counted = page.total > COUNT_CAP ? page.total : undefined;
    }
  }
  counted ??= countMatches(db, filtered, params, query);
  const totalIsLowerBound = counted > COUNT_CAP;
  const total = Math.min(counted, COUNT_CAP);
  // Nothing to page through: the page query would repeat the count's work to return no row.
  if (total === 0 || (!totalIsLowerBound && offset >= total)) return { total, totalIsLowerBound, items: [] };

  const broad = total > BROAD_MATCH_THRESHOLD;
  let sql: string;
  if (match !== null && sort === 'relevance') {
    // FTS yields rowids in order, so a broad match takes its first page in catalog order without
    // ranking (bm25 over tens of thousands of hits costs more than the budget and says little).
    const ranking = productSearchRanking(terms);
    if (ranking === null) throw new Error('a text match without terms');
    if (broad) return { total, totalIsLowerBound, items: broadTieredPage(db, { ...filtered, rows: pageFilters }, ranking, columns, params, limit, offset).map(toHit) };
    // Only ordering keys here: the rows are the match's already, so the tiers need not repeat it.
    params.exact = ranking.exact;
    params.prefix = ranking.prefix;
    params.named = ranking.named;
    sql = `SELECT ${columns} FROM product_search s JOIN products p ON p.product_ref = s.rowid
      WHERE ${textWhere(filtered, pageFilters)} ORDER BY ${RANK_TIERS}, ${NAMED_TIER}, s.rank, s.rowid LIMIT @limit OFFSET @offset`;
  } else if (broad && matched !== null && !listOnly && (sort === 'priceAsc' || sort === 'priceDesc')) {
    // The walk goes through variants, which a list-only product lacks; while there are such products
    // (a sync under way) the matches are sorted instead, below.
    sql = matchedPriceWalk(query, sort, sets, match !== null);
  } else {
    // A narrow result ordered by the matched price sorts its matches (a broad one walks, above).
    const byMatched = matched !== null && (sort === 'priceAsc' || sort === 'priceDesc');
    const orderBy = sort === 'relevance' ? 'p.product_ref' : byMatched ? matchedOrderBy(sort, matched) : ORDER_BY[sort];
    // A broad result walks the index of its order and stops after one page, testing each entry
    // against the sets before reading its row; the planner, without statistics, would rather
    // collect every match through a filter index and sort them.
    const sortIndex = sort === 'priceAsc' && price !== null ? PRICE_ASCENDING_INDEX : sort === 'relevance' ? null : SORT_INDEX[sort];
    const indexedBy = !broad || byMatched ? '' : sortIndex === null ? ' NOT INDEXED' : ` INDEXED BY ${sortIndex}`;
    // A narrow result without text is found through its filter index (plain row conditions the
    // planner can drive from); a walk tests the sets on each entry's product_ref instead.
    const narrowFilters = match === null && !broad;
    const where = ['p.removed_at IS NULL', ...(narrowFilters ? rowConditions(query, listOnly) : sets.map((set) => set('p.product_ref + 0'))), ...pageFilters];
    if (match !== null) where.push('p.product_ref IN (SELECT rowid FROM product_search WHERE product_search MATCH @match)');
    sql = `SELECT ${columns} FROM ${narrowFilters ? plainFrom(query) : `products p${indexedBy}`} WHERE ${where.join(' AND ')} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`;
  }
  const rows = hitStatement(db, sql).all({ ...params, limit, offset });

  return { total, totalIsLowerBound, items: rows.map(toHit) };
}

// Stored variants once a detail is stored; before that the list's own count (0016), 0 when unknown.
const VARIANT_COUNT = 'CASE WHEN p.revision IS NULL THEN coalesce(p.listed_variant_count, 0) ELSE p.variant_count END';

/** The hit's columns; its price is the matched one (matchedPrice) when the search has a price bound. */
function selectColumns(matched: string | null): string {
  return `p.product_ref, p.catalog_ref, p.name, p.product_type, p.availability, p.brand_name, p.image_url,
  ${matched === null ? 'p.price_from_fen' : `${matched} AS price_from_fen`}, p.revision, p.listed_revision,
  ${VARIANT_COUNT} AS variant_count, p.in_stock`;
}

interface SortKey {
  readonly key: string;
  readonly orderBy: string;
  /** The key is read from PRICE_INDEX alone (named: the planner would read the table). */
  readonly priceIndex: boolean;
}

function sortKey(sort: Exclude<ProductSort, 'relevance'>, matched: string | null): SortKey {
  const { key, orderBy } = SORT_KEY[sort];
  if (matched !== null && (sort === 'priceAsc' || sort === 'priceDesc')) return { key: matched, orderBy, priceIndex: false };
  return { key, orderBy, priceIndex: key === 'p.price_from_fen' };
}

// The sort key of each order, carried by sortedTextPage from the counting pass to the page.
const SORT_KEY: Record<Exclude<ProductSort, 'relevance'>, { readonly key: string; readonly orderBy: string }> = {
  priceAsc: { key: 'p.price_from_fen', orderBy: '(m.sort_key IS NULL), m.sort_key, m.ref' },
  priceDesc: { key: 'p.price_from_fen', orderBy: 'm.sort_key DESC, m.ref DESC' },
  nameAsc: { key: 'p.name', orderBy: 'm.sort_key, m.ref' },
  recentlyChanged: { key: 'p.revision', orderBy: 'm.sort_key DESC, m.ref DESC' },
};

// Everything a price filter and a price sort read, keyed by product_ref (0008-product-search-price):
// a text match is checked without reading its products row. The planner would take the rowid
// lookup into the table instead, so it is named wherever it covers the query.
const PRICE_INDEX = 'products_search_price';

// The ascending price order with the price columns (0008-product-search-price), walked when a price
// filter is set: an entry outside the range is rejected without reading its row.
const PRICE_ASCENDING_INDEX = 'products_price_ascending_prices';

function hasRange(query: ProductSearchQuery): boolean {
  return query.minPriceFen !== undefined && query.maxPriceFen !== undefined;
}

/**
 * Up to COUNT_CAP + 1 matches of a text with row filters, counted, and the page of them in the
 * given order: the matches are kept with their sort key, sorted, and only the page reads its rows
 * again. total > COUNT_CAP means the page is not valid (it ranks only the first matches).
 */
function sortedTextPage(
  db: Database,
  filtered: Filtered,
  { key, orderBy, priceIndex }: SortKey,
  columns: string,
  params: Params,
  limit: number,
  offset: number,
): ProductSearchResult {
  const rows = pageStatement(
    db,
    `WITH matched AS MATERIALIZED (
       SELECT s.rowid AS ref, ${key} AS sort_key FROM product_search s JOIN products p${priceIndex ? ` INDEXED BY ${PRICE_INDEX}` : ''} ON p.product_ref = s.rowid
        WHERE ${textWhere(filtered, filtered.rows)} ${LIMIT_COUNT})
     SELECT (SELECT count(*) FROM matched) AS total, ${columns}
       FROM (SELECT ref, sort_key FROM matched m ORDER BY ${orderBy} LIMIT @limit OFFSET @offset) m
       JOIN products p ON p.product_ref = m.ref ORDER BY ${orderBy}`,
  ).all({ ...params, limit, offset });
  const total = rows[0]?.total ?? 0;
  return { total: Math.min(total, COUNT_CAP), totalIsLowerBound: total > COUNT_CAP, items: rows.map(toHit) };
}

/** Text matches that pass the filter sets, counted up to COUNT_CAP + 1 on the index alone. */
function textCount(db: Database, filtered: Filtered, params: Params): number {
  return countRows(db, `SELECT count(*) AS total FROM (SELECT 1 FROM product_search s WHERE ${textWhere(filtered, [])} ${LIMIT_COUNT})`, params);
}

/** Text matches proven by price alone (see provenPriceFilter), counted up to COUNT_CAP + 1. */
function provenCount(db: Database, filtered: Filtered, params: Params, query: ProductSearchQuery): number {
  return countRows(
    db,
    `SELECT count(*) AS total FROM (SELECT 1 FROM product_search s JOIN products p INDEXED BY ${PRICE_INDEX} ON p.product_ref = s.rowid
      WHERE ${textWhere(filtered, [provenPriceFilter(query.inStock === true)])} ${LIMIT_COUNT})`,
    params,
  );
}

interface Filtered {
  readonly match: string | null;
  /** Conditions on a product_ref expression, answered from covering indexes. */
  readonly sets: readonly ((ref: string) => string)[];
  /** Conditions that need the products row (price). */
  readonly rows: readonly string[];
  /** Some product is known only from the list (list-only-search.ts). */
  readonly listOnly: boolean;
}

const LIMIT_COUNT = `LIMIT ${COUNT_CAP + 1}`;

function countMatches(db: Database, filtered: Filtered, params: Params, query: ProductSearchQuery): number {
  const { match, rows } = filtered;
  const ranged = hasRange(query);
  if (match !== null) {
    if (rows.length === 0) return textCount(db, filtered, params);
    // A price range is often straddled by thousands of products (their cheapest variant below it,
    // their dearest above), each of which the full filter settles by reading its variants. Those
    // proven by their lowest or highest price alone usually pass the cap first.
    if (ranged) {
      const proven = provenCount(db, filtered, params, query);
      if (proven > COUNT_CAP) return proven;
    }
    return countRows(
      db,
      `SELECT count(*) AS total FROM (SELECT 1 FROM product_search s JOIN products p INDEXED BY ${PRICE_INDEX} ON p.product_ref = s.rowid
        WHERE ${textWhere(filtered, rows)} ${LIMIT_COUNT})`,
      params,
    );
  }
  const plain = ['p.removed_at IS NULL', ...rowConditions(query, filtered.listOnly)];
  const from = plainFrom(query);
  // In stock within a price range: a product whose lowest in-stock price lies in the range matches
  // for sure, and those are one range of products_in_stock_price. When they alone pass the cap, the
  // exact count, which reads the variants of every product whose prices straddle the range, is moot.
  if (query.inStock === true && ranged) {
    const sure = countRows(
      db,
      `SELECT count(*) AS total FROM (SELECT 1 FROM ${from} WHERE ${[...plain, 'p.stock_price_min_fen BETWEEN @minPriceFen AND @maxPriceFen'].join(' AND ')} ${LIMIT_COUNT})`,
      params,
    );
    if (sure > COUNT_CAP) return sure;
  }
  // Without text the filters are plain row conditions: the planner drives the count from the
  // narrowest filter index, which is cheaper than building a set of it.
  return countRows(db, `SELECT count(*) AS total FROM (SELECT 1 FROM ${from} WHERE ${[...plain, ...rows].join(' AND ')} ${LIMIT_COUNT})`, params);
}

// A category (at most a few thousand products per leaf) drives a search without text through its
// index. Named because with ANALYZE statistics the planner costs an IN list of categories above a
// scan of the whole table, and took the scan (hundreds of ms).
function plainFrom(query: ProductSearchQuery): string {
  return query.catalogRef === undefined ? 'products p' : 'products p INDEXED BY products_catalog_ref';
}

/** The filters as conditions on the products row p, for a count driven by a filter index. */
function rowConditions(query: ProductSearchQuery, listOnly: boolean): string[] {
  const conditions: string[] = [];
  if (query.catalogRef !== undefined) {
    conditions.push('p.catalog_ref IN (SELECT @catalogRef UNION ALL SELECT catalog_ref FROM categories WHERE parent_ref = @catalogRef)');
  }
  if (query.availability !== undefined) conditions.push('p.availability = @availability');
  if (query.inStock === true) conditions.push(inStockRow(listOnly));
  return conditions;
}

// FTS drives: the sets test s.rowid ("+ 0" keeps FTS5 from turning the set into one rowid lookup
// per member, each a fresh expression seek), then the products row p is read for the rest.
function textWhere(filtered: Filtered, rows: readonly string[]): string {
  const where = ['product_search MATCH @match', ...filtered.sets.map((set) => set('s.rowid + 0'))];
  if (rows.length > 0) where.push('p.removed_at IS NULL', ...rows);
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
    detailState: detailState(row.revision, row.listed_revision),
  };
}

function assertInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer between ${min} and ${max}, got ${value}`);
  }
}
