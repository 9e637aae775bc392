// Benchmark (b): searchProducts over a 100,000-product cache (filled by benchmark c). A few hundred
// realistic queries drawn with a fixed seed: 1–4 character substrings of real product names (Chinese
// mostly), alone or with a category, in-stock, availability or price filter, and every sort. The
// first round prepares statements and warms the page cache; only the second is measured.
import type { Database } from 'better-sqlite3';
import { searchProducts, type ProductSearchQuery, type ProductSort } from '../src/core/catalog/catalog-search';
import type { Category, Product } from '../src/sandbox/domain/catalog-types';
import { quantile } from './bench-database';

const QUERY_COUNT = 400;
const GOAL_P95_MS = 15;

/** mulberry32: a tiny seeded generator, so every run asks the same queries. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function searchQueries(products: readonly Product[], categories: readonly Category[], count = QUERY_COUNT): ProductSearchQuery[] {
  const random = seededRandom(7);
  const sorts: ProductSort[] = ['relevance', 'priceAsc', 'priceDesc', 'nameAsc', 'recentlyChanged'];
  const parents = categories.filter((c) => c.parentRef === null);
  const substring = (): string => {
    const chars = Array.from(pick(products, random).name).filter((c) => /\S/u.test(c));
    const length = 1 + Math.floor(random() * 4);
    const start = Math.floor(random() * Math.max(1, chars.length - length + 1));
    return chars.slice(start, start + length).join('');
  };
  const queries: ProductSearchQuery[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    const catalogRef = (random() < 0.5 ? pick(parents, random) : pick(categories, random)).catalogRef;
    const minPriceFen = Math.floor(random() * 5000);
    const price = { minPriceFen, maxPriceFen: minPriceFen + 1000 + Math.floor(random() * 20000) };
    if (roll < 0.35) queries.push({ text: substring() });
    else if (roll < 0.5) queries.push({ text: substring(), inStock: true });
    else if (roll < 0.6) queries.push({ text: substring(), catalogRef });
    else if (roll < 0.7) queries.push({ text: substring(), ...price, sort: 'priceAsc' });
    else if (roll < 0.8) queries.push({ text: substring(), sort: pick(sorts, random) });
    else if (roll < 0.88) queries.push({ catalogRef, sort: pick(sorts, random) });
    else if (roll < 0.94) queries.push({ inStock: true, ...price, sort: 'priceDesc' });
    else queries.push({ text: `${substring()} ${substring()}`, availability: 'available', sort: pick(sorts, random) });
  }
  return queries;
}

export interface SearchBenchResult {
  readonly lines: string[];
  readonly p95Ms: number;
}

export function benchCatalogSearch(db: Database, products: readonly Product[], categories: readonly Category[]): SearchBenchResult {
  return benchQueries(db, searchQueries(products, categories), `catalog search: ${products.length} products,`);
}

/** Runs the queries twice (the first round prepares and warms) and reports the second. */
export function benchQueries(db: Database, queries: readonly ProductSearchQuery[], label: string): SearchBenchResult {
  for (const query of queries) searchProducts(db, query);
  const timings: { ms: number; query: ProductSearchQuery; total: number }[] = [];
  for (const query of queries) {
    const started = performance.now();
    const result = searchProducts(db, query);
    timings.push({ ms: performance.now() - started, query, total: result.total });
  }
  const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
  const p50 = quantile(sorted, 0.5);
  const p95 = quantile(sorted, 0.95);
  const max = sorted.at(-1) ?? Number.NaN;
  const found = timings.filter((t) => t.total > 0).length;
  const lines = [
    `${label} ${queries.length} queries (${found} find something), p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${max.toFixed(2)} ms (goal p95 <= ${GOAL_P95_MS} ms: ${p95 <= GOAL_P95_MS ? 'met' : 'MISSED'})`,
  ];
  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 3);
  for (const slow of slowest) lines.push(`  slowest: ${slow.ms.toFixed(2)} ms, ${slow.total} matches, ${JSON.stringify(slow.query)}`);
  return { lines, p95Ms: p95 };
}
