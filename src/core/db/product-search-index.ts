// Writes the product_search document of a product and turns query terms into an FTS5 MATCH
// expression. The index layout (0001-catalog) lives here and nowhere else:
//   text  = normalised lines (product name, brand name, and "product name + variant title" per
//           variant), joined by newlines; terms of 3+ characters are trigram phrases on it, which
//           is exact substring matching.
//   grams = every distinct 1- and 2-character substring of those lines, padded to one trigram
//           each ("会员␟"); terms of 1–2 characters match one padded gram, so short Chinese
//           queries use the index instead of scanning (FTS5 trigram alone cannot match them).
// Any code that changes a product's name, brand or variants, or lists a removed product again,
// must call refreshProductSearch in the same transaction; deleting a product or setting removed_at
// removes its document by trigger.
import type { Database, Statement } from 'better-sqlite3';
import { codePointLength, normalizeSearchText, padGram, shortGrams } from './search-text';

interface ProductTextRow {
  name: string;
  brand_name: string | null;
  removed_at: number | null;
}

interface Statements {
  product: Statement<[number], ProductTextRow>;
  titles: Statement<[number], { title: string }>;
  remove: Statement<[number]>;
  insert: Statement<[number, string, string]>;
}

const cache = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let found = cache.get(db);
  if (!found) {
    found = {
      product: db.prepare('SELECT name, brand_name, removed_at FROM products WHERE product_ref = ?'),
      titles: db.prepare('SELECT title FROM variants WHERE product_ref = ? ORDER BY position, variant_ref'),
      remove: db.prepare('DELETE FROM product_search WHERE rowid = ?'),
      insert: db.prepare('INSERT INTO product_search (rowid, text, grams) VALUES (?, ?, ?)'),
    };
    cache.set(db, found);
  }
  return found;
}

export interface ProductSearchDocument {
  readonly text: string;
  readonly grams: string;
}

export function productSearchDocument(name: string, brandName: string | null, variantTitles: readonly string[]): ProductSearchDocument {
  const lines = new Set<string>();
  for (const line of [name, brandName ?? '', ...variantTitles.map((title) => name + title)]) {
    const normalized = normalizeSearchText(line);
    if (normalized.length > 0) lines.add(normalized);
  }
  const grams = new Set<string>();
  for (const line of lines) for (const gram of shortGrams(line)) grams.add(padGram(gram));
  return { text: [...lines].join('\n'), grams: [...grams].join('') };
}

/** Rewrites the search document of one product from its current row and variants. */
export function refreshProductSearch(db: Database, productRef: number): void {
  const s = statements(db);
  s.remove.run(productRef);
  const product = s.product.get(productRef);
  // A removed product has no document: searches never show it and counts need no join.
  if (!product || product.removed_at !== null) return;
  const titles = s.titles.all(productRef).map((row) => row.title);
  const doc = productSearchDocument(product.name, product.brand_name, titles);
  s.insert.run(productRef, doc.text, doc.grams);
}

/** The MATCH expression requiring every term, or null when there is no term. */
export function productSearchMatch(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms
    .map((term) => (codePointLength(term) < 3 ? `grams : ${quote(padGram(term))}` : `text : ${quote(term)}`))
    .join(' AND ');
}

function quote(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}
