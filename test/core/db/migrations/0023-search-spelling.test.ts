// Migration 0023 (search spelling): a database whose search documents were written before pinyin
// spellings and category names existed queues every listed product; core's rebuild rewrites them
// (in batches, resumable), after which the product is found by pinyin and by its category's name.
import { afterEach, describe, expect, it } from 'vitest';
import { searchProducts } from '../../../../src/core/catalog/catalog-search';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { rebuildStaleSearchDocuments } from '../../../../src/core/db/product-search-index';
import { padGram, shortGrams } from '../../../../src/core/db/search-text';
import { insertCategory, insertProduct } from '../catalog-fixtures';
import { createMigratedDatabase, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'search-spelling');
const before = migrations.slice(0, index);
const through = migrations.slice(0, index + 1);
let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

/** The document as the index writer before 0023 wrote it: plain lines and their grams, nothing else. */
function writeOldDocument(t: TempDatabase, productRef: number, lines: readonly string[]): void {
  const grams = new Set(lines.flatMap((line) => shortGrams(line).map(padGram)));
  t.db.prepare('DELETE FROM product_search WHERE rowid = ?').run(productRef);
  t.db.prepare('INSERT INTO product_search (rowid, text, grams) VALUES (?, ?, ?)').run(productRef, lines.join('\n'), [...grams].join(''));
}

const found = (t: TempDatabase, text: string): number[] => searchProducts(t.db, { text }).items.map((hit) => hit.productRef);

describe('0023 search spelling', () => {
  it('is the migration after 0022 and queues every listed product, not removed ones', () => {
    temp = createMigratedDatabase(before);
    const t = temp;
    insertCategory(t.db, 2, '话费充值');
    insertProduct(t.db, { productRef: 1, catalogRef: 2, name: '爱奇艺黄金会员', variants: [{ variantRef: 1, title: '月卡', priceFen: 1980 }] });
    insertProduct(t.db, { productRef: 2, catalogRef: 2, name: '下架商品', variants: [] });
    t.db.prepare('UPDATE products SET removed_at = 1 WHERE product_ref = 2').run();
    migrate(t.db, { migrations: through, now: () => 1_790_000_000 });
    expect(through.at(-2)?.name).toBe('order-server-failures');
    expect(t.db.prepare('SELECT product_ref FROM product_search_stale').all()).toEqual([{ product_ref: 1 }]);
  });

  it('rebuilds old documents so an existing cache finds pinyin and category names, then empties the queue', () => {
    temp = createMigratedDatabase(before);
    const t = temp;
    insertCategory(t.db, 2, '话费充值');
    insertProduct(t.db, { productRef: 1, catalogRef: 2, name: '中国联通 全国', variants: [{ variantRef: 1, title: '100元', priceFen: 9950 }] });
    insertProduct(t.db, { productRef: 3, catalogRef: 2, name: '爱奇艺黄金会员', variants: [{ variantRef: 1, title: '月卡', priceFen: 1980 }] });
    writeOldDocument(t, 1, ['中国联通全国', '中国联通全国100元']);
    writeOldDocument(t, 3, ['爱奇艺黄金会员', '爱奇艺黄金会员月卡']);
    migrate(t.db, { migrations: through, now: () => 1_790_000_000 });
    // Before the rebuild: found by its own characters only.
    expect(found(t, '联通')).toEqual([1]);
    expect(found(t, 'aqy')).toEqual([]);
    expect(found(t, '话费')).toEqual([]);
    expect(rebuildStaleSearchDocuments(t.db)).toBe(2);
    expect(found(t, 'aqy')).toEqual([3]);
    expect(found(t, 'liantong')).toEqual([1]);
    expect(found(t, '话费').sort((a, b) => a - b)).toEqual([1, 3]);
    expect(t.db.prepare('SELECT count(*) AS n FROM product_search_stale').get()).toEqual({ n: 0 });
    expect(rebuildStaleSearchDocuments(t.db)).toBe(0);
  });

  it('is a no-op on a database without the queue (the rebuild runs on every open)', () => {
    temp = createMigratedDatabase(before);
    expect(rebuildStaleSearchDocuments(temp.db)).toBe(0);
  });
});
