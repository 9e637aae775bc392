// Migration 0021 (charged amounts): an order keeps the amount the merchant first charged, whatever later
// answers say; orders stored before it take the amount they had.
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/core/db/migrations';
import { migrate } from '../../../../src/core/db/migrate';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'charged-amounts');
const through = migrations.slice(0, index + 1);
let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

const intent = (ref: string): string =>
  `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, created_at, updated_at) VALUES ('${ref}', 1, 0, 'card', 1, 'accepted', 10, 10)`;
const order = (ref: string, fen: number): string =>
  `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, units, unit_price_fen, total_fen, state, revision, created_at, updated_at, detail_json, fetched_at)
   VALUES ('${ref}', 'P${ref}', 1, 0, 1, ${fen}, ${fen}, 'completed', 1, 10, 10, '{}', 10)`;
const charged = (temp: TempDatabase, ref: string): number | null =>
  temp.db.prepare<[string], { charged_fen: number | null }>('SELECT charged_fen FROM orders WHERE client_order_ref = ?').get(ref)?.charged_fen ?? null;

describe('0021 charged amounts', () => {
  it('is migration 21 and adds charged_fen to orders and foreign orders', () => {
    temp = createMigratedDatabase(through);
    expect(through.at(-1)?.id).toBe(21);
    expect(tableColumns(temp.db, 'orders')).toContain('charged_fen');
    expect(tableColumns(temp.db, 'foreign_orders')).toContain('charged_fen');
  });

  it('keeps the first amount through later answers and refuses to change it; older orders take theirs', () => {
    temp = createMigratedDatabase(migrations.slice(0, index));
    const { db } = temp;
    db.prepare(intent('OLD')).run();
    db.prepare(order('OLD', 1850)).run();
    migrate(db, { migrations: through, now: () => 1_790_000_001 });
    expect(charged(temp, 'OLD')).toBe(1850);

    db.prepare(intent('NEW')).run();
    db.prepare(order('NEW', 9907)).run();
    expect(charged(temp, 'NEW')).toBe(9907);
    db.prepare("UPDATE orders SET total_fen = 8907, revision = 2 WHERE client_order_ref = 'NEW'").run();
    expect(charged(temp, 'NEW')).toBe(9907);
    expect(() => db.prepare("UPDATE orders SET charged_fen = 8907 WHERE client_order_ref = 'NEW'").run()).toThrow(/never changes/);

    const foreign = "INSERT INTO foreign_orders (base_url, user_id, client_order_ref, platform_order_ref, units, total_fen, state, revision, created_at, detail_json, recorded_at_ms) VALUES ('https://m', 'u', 'X', '1', 1, ?, 'completed', ?, 10, '{}', 1) ON CONFLICT (base_url, user_id, client_order_ref) DO UPDATE SET total_fen = excluded.total_fen, revision = excluded.revision";
    db.prepare(foreign).run(500, 1);
    db.prepare(foreign).run(400, 2);
    expect(db.prepare<[], { total_fen: number; charged_fen: number }>('SELECT total_fen, charged_fen FROM foreign_orders').get()).toEqual({ total_fen: 400, charged_fen: 500 });
  });
});
