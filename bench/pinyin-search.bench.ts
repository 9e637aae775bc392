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

/** Prints each line as it is measured: the comparison run takes minutes on a loaded machine. */
export function benchPinyinSearch(db: Database, products: readonly Product[], categories: readonly Category[], print: (line: string) => void): void {
  const spelledSize = indexPages(db);
  const pinyinSet = pinyinQueries(products);
  for (const line of benchCatalogSearch(db, products, categories).lines) print(`with pinyin:    ${line}`);
  for (const line of benchQueries(db, pinyinSet, 'pinyin queries').lines) print(`with pinyin:    ${line}`);
  const plainMs = rewriteDocuments(db, false);
  print(`search index: ${products.length} documents rewritten without pinyin in ${(plainMs / 1000).toFixed(1)} s; index ${spelledSize} pages with pinyin, ${indexPages(db)} without`);
  for (const line of benchCatalogSearch(db, products, categories).lines) print(`without pinyin: ${line}`);
  for (const line of benchQueries(db, pinyinSet, 'pinyin queries').lines) print(`without pinyin: ${line}`);
  const spelledMs = rewriteDocuments(db, true);
  print(
    `search index: the same documents rewritten with pinyin in ${(spelledMs / 1000).toFixed(1)} s (${Math.round(products.length / (spelledMs / 1000))} a second; without: ${Math.round(products.length / (plainMs / 1000))} a second)`,
  );
}

function indexPages(db: Database): number {
  return db.prepare<[], { pages: number }>('SELECT count(*) AS pages FROM product_search_data').get()?.pages ?? 0;
}
