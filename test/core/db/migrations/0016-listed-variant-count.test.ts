// Migration 0016 (listed variant count): the list's variantCount gets a column of its own, NULL for a
// product cached before it (unknown until the next list page), never negative.
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { insertProduct } from '../catalog-fixtures';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'listed-variant-count');
const before = migrations.slice(0, index);
const through = migrations.slice(0, index + 1);
let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

describe('0016 listed variant count', () => {
  it('is migration 16 and adds listed_variant_count to products', () => {
    temp = createMigratedDatabase(through);
    expect(through.at(-1)?.id).toBe(16);
    expect(tableColumns(temp.db, 'products')).toContain('listed_variant_count');
  });

  it('leaves a product cached before it unknown (NULL), its stored variants counted as before', () => {
    temp = createMigratedDatabase(before);
    insertProduct(temp.db, { productRef: 1, catalogRef: 1, name: '月卡', variants: [{ variantRef: 1, title: '月卡', priceFen: 1980 }] });
    migrate(temp.db, { migrations: through, now: () => 1_790_000_000 });
    expect(temp.db.prepare('SELECT listed_variant_count, variant_count FROM products WHERE product_ref = 1').get()).toEqual({ listed_variant_count: null, variant_count: 1 });
  });

  it('refuses a negative count', () => {
    temp = createMigratedDatabase(through);
    insertProduct(temp.db, { productRef: 1, catalogRef: 1, name: '月卡', variants: [] });
    expect(() => temp?.db.prepare('UPDATE products SET listed_variant_count = -1 WHERE product_ref = 1').run()).toThrow(/CHECK/);
  });
});
