// Writes the product_search document of a product and turns query terms into an FTS5 MATCH
// expression. The index layout (0001-catalog, 0023-search-spelling) lives here and nowhere else:
//   text  = normalised lines (the name between LINE_START and LINE_END, brand, "name + variant
//           title" per variant); terms of 3+ characters are trigram phrases on it.
//   grams = every distinct 1- and 2-character substring of those lines, padded to one trigram each
//           ("会员␟"), so 1–2 character terms use the index; the category names (lines, marked grams);
//           and per name, brand and category one full-pinyin line (one code point per syllable)
//           and one initials line with their few grams (contract §11.3), never a line per syllable.
// Any code that changes a product's name, brand or variants, or lists a removed product again,
// must call refreshProductSearch in the same transaction; deleting a product or setting removed_at
// removes its document by trigger.
import type { Database, Statement } from 'better-sqlite3';
import { codePointLength, normalizeSearchText, padGram, shortGrams } from './search-text';
import { completionCodes, pieceCode, piecesAsCodes, splitSyllables } from './pinyin-syllables';
import { LINE_END, LINE_START, asInitials, hasHan, spell, type Spelling } from './search-spelling';

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
    const sources: [string, SpellingKind][] = [[normalizedName, 'name'], [normalizeSearchText(brandName ?? ''), 'brand'], ...categoryNames.map((c): [string, SpellingKind] => [normalizeSearchText(c), 'category'])];
    for (const [line, kind] of sources) {
      const spelledLine = spellingOf(line, kind);
      if (spelledLine === null) continue;
      spellings.add(spelledLine.full);
      spellings.add(spelledLine.initials);
      for (const gram of spelledLine.grams) grams.add(gram);
    }
  }
  const extra = [...categories, ...spellings];
  return { text: [...lines].join('\n'), grams: [...grams].join('') + (extra.length > 0 ? '\n' + extra.join('\n') : '') };
}

/** Marks a gram of a category name (never in normalised text, so never part of a query). */
const CATEGORY = '\u0005';

type SpellingKind = 'name' | 'brand' | 'category';

/**
 * The index lines of one spelled line: its full pinyin, each piece one private-use code point
 * (pinyin-syllables.ts; one line, so a term matches from any syllable on, the last one unfinished),
 * the padded 1- and 2-piece grams of that line (terms of one or two syllables), its initials (one line,
 * any run of consecutive characters), the padded 2-letter grams of those initials, and for a
 * name or brand the junction of each Chinese character with the next piece's first letter ("爱q",
 * for "爱qy"). A name's lines are anchored (LINE_START, LINE_END) for exact and prefix ranking.
 */
interface SpelledLine {
  readonly full: string;
  readonly initials: string;
  readonly grams: readonly string[];
}

// Brands and categories repeat across thousands of products, names across variants and regions:
// spelled lines are kept, a bounded many (a few hundred bytes each).
const SPELLING_CACHE_SIZE = 20_000;
const spellingCache = new Map<string, SpelledLine | null>();

function spellingOf(line: string, kind: SpellingKind): SpelledLine | null {
  if (!hasHan(line)) return null;
  const key = kind + '\u0000' + line;
  let found = spellingCache.get(key);
  if (found === undefined) {
    found = spelledLine(spell(line), kind);
    if (spellingCache.size >= SPELLING_CACHE_SIZE) spellingCache.clear();
    spellingCache.set(key, found);
  }
  return found;
}

function spelledLine({ pieces, chars }: Spelling, kind: SpellingKind): SpelledLine | null {
  if (pieces.length === 0) return null;
  const category = kind === 'category';
  const [start, end] = kind === 'name' ? [LINE_START, LINE_END] : ['', ''];
  const initials = asInitials(pieces.map((piece) => piece.slice(0, 1)).join(''), category);
  const full = start + piecesAsCodes(pieces, category) + end;
  // A full-pinyin term of one or two pieces (or a name's anchor and one piece) is a padded gram.
  const grams = [...shortGrams(full), ...shortGrams(initials).filter((gram) => codePointLength(gram) === 2)].map(padGram);
  if (!category) {
    chars.forEach((char, index) => {
      const next = pieces[index + 1];
      if (next !== undefined && hasHan(char)) grams.push(padGram(char + next.slice(0, 1)));
    });
  }
  return { full, initials: start + initials + end, grams };
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
 * The MATCH expression requiring every term, or null when there is no term. A term of 2+ Latin
 * letters also matches as pinyin: the full pinyin from a syllable on, the last one possibly
 * unfinished ("aiqiyi", "qiyi", "aiqiy"), or the initials of consecutive characters ("aqy"). A term
 * of Chinese characters then Latin letters ("爱qy", "爱qiyi") matches as those characters, the next
 * syllable's first letter right after the last of them, and the letters as pinyin.
 */
export function productSearchMatch(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(termMatch).join(' AND ');
}

const LATIN = /^[a-z]+$/u;
const MIXED = /^(\p{Script=Han}+)([a-z]+)$/u;

/**
 * Pinyin is asked for from two letters on: one letter would start a syllable of nearly every
 * product (a scan of the whole index for a term nobody means as pinyin).
 */
export const MIN_SPELLED_LETTERS = 2;

function termMatch(term: string): string {
  const named = namedMatch(term);
  if (!LATIN.test(term)) return `(${named} OR ${categoryCondition(term)})`;
  const category = term.length >= MIN_SPELLED_LETTERS ? spelledConditions(term, true) : [];
  return category.length === 0 ? named : `(${named} OR ${category.join(' OR ')})`;
}

/** The term in the product's own words (name, brand, variants) and their pinyin; not its category's. */
function namedMatch(term: string): string {
  const plain = textCondition(term);
  if (LATIN.test(term)) {
    if (term.length < MIN_SPELLED_LETTERS) return plain;
    return `(${[plain, ...spelledConditions(term, false)].join(' OR ')})`;
  }
  const mixed = MIXED.exec(term);
  const han = mixed?.[1];
  const letters = mixed?.[2];
  if (han === undefined || letters === undefined) return plain;
  const tied = [textCondition(han), gramsCondition((Array.from(han).at(-1) ?? '') + letters.slice(0, 1))];
  if (letters.length >= MIN_SPELLED_LETTERS) tied.push(`(${spelledConditions(letters, false).join(' OR ')})`);
  return `(${plain} OR (${tied.join(' AND ')}))`;
}

/**
 * The term within a category name: a marked gram, or (3+ characters) a phrase on the category lines
 * in the grams column. Not for Latin terms, which meet a category by its pinyin.
 */
function categoryCondition(term: string): string {
  return codePointLength(term) < 3 ? `grams : ${quote(padGram(CATEGORY + term))}` : `grams : ${quote(term)}`;
}

/** The term as a substring of the text lines (a phrase of 3+ characters, or one padded gram). */
function textCondition(term: string): string {
  return codePointLength(term) < 3 ? `grams : ${quote(padGram(term))}` : `text : ${quote(term)}`;
}

/** A string of the spellings, which live in the grams column (with the grams of their initials). */
function gramsCondition(value: string): string {
  return `grams : ${quote(codePointLength(value) < 3 ? padGram(value) : value)}`;
}

/** Letters as initials or as full pinyin (each way they split into syllables), of a name or brand or of a category. */
function spelledConditions(letters: string, category: boolean): string[] {
  // A category is matched by the likeliest split only.
  const splits = category ? fullPinyinSplits(letters).slice(0, 1) : fullPinyinSplits(letters);
  return [gramsCondition(asInitials(letters, category)), ...splits.flatMap((pieces) => fullPinyinCondition('', pieces, category) ?? [])];
}

/**
 * The splits worth asking as full pinyin: one of single letters only ("zc": z, c…; "dsz") asks no
 * more than the initials do (a piece of one letter is its own initial) and would be an OR of dozens
 * of phrases for nothing.
 */
function fullPinyinSplits(letters: string): string[][] {
  return splitSyllables(letters).filter((pieces) => pieces.some((piece) => piece.length > 1));
}

/**
 * Pieces as full pinyin: a phrase of their code points, the last one any piece it starts (an OR of
 * at most MAX_COMPLETIONS phrases, each of rare trigrams), after `start` (LINE_START for a prefix).
 */
function fullPinyinCondition(start: string, pieces: readonly string[], category: boolean): string | null {
  const last = pieces.at(-1);
  const head = wholeCodes(pieces.slice(0, -1), category);
  if (last === undefined || head === null) return null;
  const phrases = completionCodes(last, category).map((code) => gramsCondition(start + head + code));
  return phrases.length === 0 ? null : `(${phrases.join(' OR ')})`;
}

/** Whole pieces as code points, or null when one is neither a syllable nor a letter (never matched). */
function wholeCodes(pieces: readonly string[], category: boolean): string | null {
  const codes = pieces.map((piece) => pieceCode(piece, category));
  return codes.every((code) => code !== undefined) ? codes.join('') : null;
}

/**
 * The products whose name equals (exact) or starts with (prefix) the whole query, its terms joined,
 * in characters or, for Latin letters, in full pinyin or initials; relevance ranks them first, then
 * those matching in their own words (named), then those matching only through their category.
 */
export function productSearchRanking(terms: readonly string[]): { readonly exact: string; readonly prefix: string; readonly named: string } | null {
  if (terms.length === 0) return null;
  const whole = terms.join('');
  const spelled = LATIN.test(whole) && whole.length >= MIN_SPELLED_LETTERS;
  const splits = spelled ? fullPinyinSplits(whole) : [];
  const anchored = (end: string): string => {
    const conditions = [textCondition(LINE_START + whole + end)];
    if (spelled) {
      conditions.push(gramsCondition(LINE_START + asInitials(whole) + end));
      for (const pieces of splits) {
        // Equal: every piece whole; starts with: the last one possibly unfinished.
        const equal = end === '' ? null : wholeCodes(pieces, false);
        const condition = end === '' ? fullPinyinCondition(LINE_START, pieces, false) : equal === null ? null : gramsCondition(LINE_START + equal + end);
        if (condition !== null) conditions.push(condition);
      }
    }
    return `(${conditions.join(' OR ')})`;
  };
  return { exact: anchored(LINE_END), prefix: anchored(''), named: terms.map(namedMatch).join(' AND ') };
}

function quote(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}
