// Writes the product_search document of a product and turns query terms into an FTS5 MATCH
// expression. The index layout (0001-catalog, 0023-search-spelling) lives here and nowhere else:
//   text  = normalised lines (the product name between LINE_START and LINE_END, brand name,
//           "product name + variant title" per variant, category and parent category name), joined
//           by newlines; terms of 3+ characters are trigram phrases on it (exact substring matching).
//   grams = every distinct 1- and 2-character substring of those lines, padded to one trigram
//           each ("会员␟"); terms of 1–2 characters match one padded gram, so short Chinese
//           queries use the index instead of scanning (FTS5 trigram alone cannot match them).
//           Then the pinyin spellings of the name, brand and categories (search-spelling.ts) and
//           their grams that hold a marker, a full-width initial or a Chinese character: never a
//           plain Latin gram, so "an" does not meet the "an" inside "huang".
// Any code that changes a product's name, brand or variants, or lists a removed product again,
// must call refreshProductSearch in the same transaction; deleting a product or setting removed_at
// removes its document by trigger.
import type { Database, Statement } from 'better-sqlite3';
import { codePointLength, normalizeSearchText, padGram, shortGrams } from './search-text';
import { LINE_END, LINE_START, MAX_SPELLED_LETTERS, SYLLABLE_START, asInitials, hasHan, readings, spellingLines } from './search-spelling';

interface ProductTextRow {
  name: string;
  brand_name: string | null;
  removed_at: number | null;
}

interface Statements {
  product: Statement<[number], ProductTextRow>;
  titles: Statement<[number], { title: string }>;
  categories: Statement<[number], { name: string; parent: string | null }>;
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
      categories: db.prepare(
        'SELECT c.name, parent.name AS parent FROM products p JOIN categories c ON c.catalog_ref = p.catalog_ref LEFT JOIN categories parent ON parent.catalog_ref = c.parent_ref WHERE p.product_ref = ?',
      ),
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

export function productSearchDocument(
  name: string,
  brandName: string | null,
  variantTitles: readonly string[],
  categoryNames: readonly string[] = [],
  spelled = true,
): ProductSearchDocument {
  const normalizedName = normalizeSearchText(name);
  const lines = new Set<string>();
  if (normalizedName.length > 0) lines.add(LINE_START + normalizedName + LINE_END);
  const others = [brandName ?? '', ...variantTitles.map((title) => name + title)];
  for (const line of others) {
    const normalized = normalizeSearchText(line);
    if (normalized.length > 0) lines.add(normalized);
  }
  const grams = new Set<string>();
  for (const line of lines) for (const gram of shortGrams(line)) grams.add(padGram(gram));
  // Category names live apart from the product's own words, so relevance can rank a product that
  // says the query above one only filed under it: whole lines in the grams column, grams marked.
  const categories = new Set<string>();
  for (const category of categoryNames) {
    const normalized = normalizeSearchText(category);
    if (normalized.length === 0) continue;
    categories.add(normalized);
    for (const gram of shortGrams(normalized)) grams.add(padGram(CATEGORY + gram));
  }
  const spellings = new Set<string>();
  if (spelled) {
    for (const line of spellingsOf(normalizedName, true)) spellings.add(line);
    for (const other of [brandName ?? '', ...categoryNames]) for (const line of spellingsOf(normalizeSearchText(other), false)) spellings.add(line);
  }
  for (const line of spellings) for (const gram of shortGrams(line)) if (!PRINTABLE_ASCII.test(gram)) grams.add(padGram(gram));
  const extra = [...categories, ...spellings];
  return { text: [...lines].join('\n'), grams: [...grams].join('') + (extra.length > 0 ? '\n' + extra.join('\n') : '') };
}

/** Marks a gram of a category name (never in normalised text, so never part of a query). */
const CATEGORY = '\u0005';

// Plain Latin and digit grams come from the text lines; the spellings add only marked ones.
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/u;

// Brands and categories repeat across thousands of products: their spellings are kept, a bounded few.
const SPELLING_CACHE_SIZE = 4096;
const spellingCache = new Map<string, readonly string[]>();

function spellingsOf(line: string, marked: boolean): readonly string[] {
  if (!hasHan(line)) return [];
  const key = (marked ? '1' : '0') + line;
  let found = spellingCache.get(key);
  if (found === undefined) {
    const chars = Array.from(line);
    found = readings(line).flatMap((reading) => spellingLines(reading, chars, marked));
    if (spellingCache.size >= SPELLING_CACHE_SIZE) spellingCache.clear();
    spellingCache.set(key, found);
  }
  return found;
}

/**
 * Rewrites the search document of one product from its current row and variants. `spelled` false
 * leaves the pinyin out: only the search benchmark's comparison run asks for that.
 */
export function refreshProductSearch(db: Database, productRef: number, spelled = true): void {
  const s = statements(db);
  s.remove.run(productRef);
  const product = s.product.get(productRef);
  // A removed product has no document: searches never show it and counts need no join.
  if (!product || product.removed_at !== null) return;
  const titles = s.titles.all(productRef).map((row) => row.title);
  const category = s.categories.get(productRef);
  const categoryNames = category === undefined ? [] : [category.name, ...(category.parent === null ? [] : [category.parent])];
  const doc = productSearchDocument(product.name, product.brand_name, titles, categoryNames, spelled);
  s.insert.run(productRef, doc.text, doc.grams);
}

const REBUILD_BATCH = 500;

/**
 * Rewrites the documents 0023-search-spelling queued (every product of a database made before
 * spellings existed), REBUILD_BATCH per transaction; returns how many. A no-op once the queue is empty.
 */
export function rebuildStaleSearchDocuments(db: Database): number {
  const queued = db.prepare<[], { present: number }>("SELECT count(*) AS present FROM sqlite_master WHERE type = 'table' AND name = 'product_search_stale'").get();
  if (queued?.present !== 1) return 0;
  const next = db.prepare<[number], { product_ref: number }>('SELECT product_ref FROM product_search_stale ORDER BY product_ref LIMIT ?');
  const done = db.prepare<[number]>('DELETE FROM product_search_stale WHERE product_ref = ?');
  let rebuilt = 0;
  const batch = db.transaction((refs: readonly number[]) => {
    for (const ref of refs) {
      refreshProductSearch(db, ref);
      done.run(ref);
    }
  });
  for (;;) {
    const refs = next.all(REBUILD_BATCH).map((row) => row.product_ref);
    if (refs.length === 0) return rebuilt;
    batch(refs);
    rebuilt += refs.length;
  }
}

/**
 * The MATCH expression requiring every term, or null when there is no term. A term of Latin letters
 * also matches as pinyin: the full pinyin from a syllable on ("aiqiyi", "qiyi", "aiqiy") or the
 * initials of consecutive characters ("aqy"). A term of Chinese characters then Latin letters ("爱qy",
 * "爱qiyi") matches as those characters, the next syllable's first letter right after the last of
 * them, and the letters as pinyin.
 */
export function productSearchMatch(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(termMatch).join(' AND ');
}

const LATIN = /^[a-z]+$/u;
const MIXED = /^(\p{Script=Han}+)([a-z]+)$/u;

function termMatch(term: string): string {
  const named = namedMatch(term);
  return LATIN.test(term) ? named : `(${named} OR ${categoryCondition(term)})`;
}

/** The term in the product's own words (name, brand, variants) and spellings; not its category's. */
function namedMatch(term: string): string {
  const plain = textCondition(term);
  if (LATIN.test(term)) return `(${plain} OR ${spelledCondition(term)})`;
  const mixed = MIXED.exec(term);
  const han = mixed?.[1];
  const letters = mixed?.[2];
  if (han === undefined || letters === undefined) return plain;
  const junction = gramsCondition((Array.from(han).at(-1) ?? '') + letters.slice(0, 1));
  return `(${plain} OR (${textCondition(han)} AND ${junction} AND ${spelledCondition(letters)}))`;
}

/**
 * The term within a category name: a marked gram, or (3+ characters) a phrase on the category lines
 * in the grams column. Not for Latin terms, which would meet full pinyin mid-syllable there; a
 * category is found in Latin letters by its pinyin.
 */
function categoryCondition(term: string): string {
  return codePointLength(term) < 3 ? `grams : ${quote(padGram(CATEGORY + term))}` : `grams : ${quote(term)}`;
}

/** The term as a substring of the text lines (a phrase of 3+ characters, or one padded gram). */
function textCondition(term: string): string {
  return codePointLength(term) < 3 ? `grams : ${quote(padGram(term))}` : `text : ${quote(term)}`;
}

/** A string of the spellings, which live in the grams column (with the grams of their markers). */
function gramsCondition(value: string): string {
  return `grams : ${quote(codePointLength(value) < 3 ? padGram(value) : value)}`;
}

function spelledCondition(letters: string): string {
  return `(${gramsCondition(SYLLABLE_START + letters.slice(0, MAX_SPELLED_LETTERS))} OR ${gramsCondition(asInitials(letters))})`;
}

/**
 * The products whose name equals (exact) or starts with (prefix) the whole query, its terms joined,
 * in characters or, for Latin letters, in full pinyin or initials; relevance ranks them first, then
 * those matching in their own words (named), then those matching only through their category.
 */
export function productSearchRanking(terms: readonly string[]): { readonly exact: string; readonly prefix: string; readonly named: string } | null {
  if (terms.length === 0) return null;
  const whole = terms.join('');
  const anchored = (end: string): string => {
    const conditions = [textCondition(LINE_START + whole + end)];
    if (LATIN.test(whole)) {
      conditions.push(gramsCondition(LINE_START + SYLLABLE_START + whole + end), gramsCondition(LINE_START + asInitials(whole) + end));
    }
    return `(${conditions.join(' OR ')})`;
  };
  return { exact: anchored(LINE_END), prefix: anchored(''), named: terms.map(namedMatch).join(' AND ') };
}

function quote(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}
