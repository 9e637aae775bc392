// Benchmark (b'): the search benchmark's queries with the pinyin index and, in the same run on the
// same 100,000 products, without it (every document rewritten without spellings), plus pinyin
// queries (initials and full pinyin of real names, as buyers type them) both ways. Pinyin is
// computed here only to write the queries; the app computes it when it writes a document.
import type { Database } from 'better-sqlite3';
import { pinyin } from 'pinyin-pro';
import type { ProductSearchQuery } from '../src/core/catalog/catalog-search';
import { refreshProductSearch } from '../src/core/db/product-search-index';
import type { Category, Product } from '../src/sandbox/domain/catalog-types';
import { benchCatalogSearch, benchQueries } from './catalog-search.bench';

const PINYIN_QUERY_COUNT = 200;

/** Initials (2–4 characters) and full pinyin (2–3 syllables) of runs of real names, seeded. */
export function pinyinQueries(products: readonly Product[], count = PINYIN_QUERY_COUNT): ProductSearchQuery[] {
  const queries: ProductSearchQuery[] = [];
  for (let i = 0; queries.length < count && i < products.length; i++) {
    const product = products[(i * 7919) % products.length];
    if (product === undefined) continue;
    const syllables = pinyin(product.name, { toneType: 'none', type: 'array', v: true }).filter((s) => /^[a-z]+$/u.test(s));
    const length = 2 + (i % 3);
    const start = i % Math.max(1, syllables.length - length + 1);
    const run = syllables.slice(start, start + length);
    if (run.length < 2) continue;
    queries.push({ text: i % 2 === 0 ? run.map((s) => s.slice(0, 1)).join('') : run.join('') });
  }
  return queries;
}

function rewriteDocuments(db: Database, spelled: boolean): number {
  const started = performance.now();
  const refs = db.prepare<[], { product_ref: number }>('SELECT product_ref FROM products WHERE removed_at IS NULL').all();
  db.transaction(() => {
    for (const row of refs) refreshProductSearch(db, row.product_ref, spelled);
  })();
  return performance.now() - started;
}

export function benchPinyinSearch(db: Database, products: readonly Product[], categories: readonly Category[]): string[] {
  const lines: string[] = [];
  const spelledSize = indexPages(db);
  const pinyinSet = pinyinQueries(products);
  lines.push(...benchCatalogSearch(db, products, categories).lines.map((line) => `with pinyin:    ${line}`));
  lines.push(...benchQueries(db, pinyinSet, 'pinyin queries').lines.map((line) => `with pinyin:    ${line}`));
  const plainMs = rewriteDocuments(db, false);
  const plainSize = indexPages(db);
  lines.push(...benchCatalogSearch(db, products, categories).lines.map((line) => `without pinyin: ${line}`));
  lines.push(...benchQueries(db, pinyinSet, 'pinyin queries').lines.map((line) => `without pinyin: ${line}`));
  const spelledMs = rewriteDocuments(db, true);
  lines.push(
    `search index: ${products.length} documents rewritten in ${(spelledMs / 1000).toFixed(1)} s with pinyin, ${(plainMs / 1000).toFixed(1)} s without; index ${spelledSize} pages with, ${plainSize} without`,
  );
  return lines;
}

function indexPages(db: Database): number {
  return db.prepare<[], { pages: number }>("SELECT count(*) AS pages FROM product_search_data").get()?.pages ?? 0;
}
