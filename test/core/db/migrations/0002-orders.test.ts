// Migration 0002 (orders): intents before orders, raw merchant states, no card secrets in order
// details, monotonic revisions, and at most one refund in flight per order.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { catalogMigration } from '../../../../src/core/db/migrations/0001-catalog';
import { ordersMigration } from '../../../../src/core/db/migrations/0002-orders';
import { createMigratedDatabase, tableColumns, tableNames } from '../temp-database';
import type { TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase([catalogMigration, ordersMigration]);
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertIntent(ref: string, status = 'queued'): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, purchase_schema_revision,
                                purchase_entries_json, status, created_at, updated_at)
     VALUES (?, 101, 1, 'topup', 2, 7, '[{"account":"13800000000"}]', ?, 1, 1)`,
  ).run(ref, status);
}

function insertOrder(ref: string, detail: object = { clientOrderRef: ref, card_list: null }, state = 'pending'): void {
  db.prepare(
    `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, units, unit_price_fen, total_fen, state,
                         allowed_actions_json, revision, created_at, updated_at, detail_json, fetched_at)
     VALUES (?, ?, 101, 1, 2, 1000, 2000, ?, '["cancel"]', 1, 1, 1, ?, 1)`,
  ).run(ref, `P-${ref}`, state, JSON.stringify(detail));
}

function insertRefundIntent(ref: string, orderRef: string, status = 'queued'): void {
  db.prepare(
    `INSERT INTO refund_intents (client_refund_ref, client_order_ref, amount_fen, reason, status, created_at, updated_at)
     VALUES (?, ?, NULL, '不想要了', ?, 1, 1)`,
  ).run(ref, orderRef, status);
}

describe('0002 orders', () => {
  it('creates the order tables', () => {
    expect(tableNames(db)).toEqual(expect.arrayContaining(['order_intents', 'orders', 'refunds', 'refund_intents']));
    expect(tableColumns(db, 'order_intents')).toEqual(
      expect.arrayContaining([
        'client_order_ref', 'product_ref', 'variant_ref', 'units', 'purchase_entries_json', 'purchase_schema_revision',
        'order_callback_url', 'image_url', 'status', 'attempts', 'last_error_code', 'last_error_message', 'last_request_id',
        'next_attempt_at', 'created_at',
      ]),
    );
    expect(tableColumns(db, 'orders')).toEqual(
      expect.arrayContaining([
        'client_order_ref', 'platform_order_ref', 'state', 'allowed_actions_json', 'revision', 'total_fen', 'refunded_fen',
        'unit_price_fen', 'product_name', 'variant_title', 'product_type', 'failure_reason', 'verification_hint', 'created_at',
        'updated_at', 'completed_at', 'detail_json', 'last_polled_at', 'next_poll_at',
      ]),
    );
    expect(tableColumns(db, 'refunds')).toEqual(
      expect.arrayContaining(['refund_ref', 'client_refund_ref', 'client_order_ref', 'amount_fen', 'state', 'reason', 'merchant_note', 'created_at', 'resolved_at']),
    );
  });

  it('accepts only client refs of 1..64 characters of A-Z a-z 0-9 _ -', () => {
    insertIntent('pd_20260101-abcDEF0123');
    insertIntent('x'.repeat(64));
    for (const bad of ['', 'x'.repeat(65), 'has space', '订单1', 'semi;colon']) {
      expect(() => insertIntent(bad)).toThrow(/CHECK/);
    }
    expect(() => insertIntent('pd_20260101-abcDEF0123')).toThrow(/UNIQUE|PRIMARY KEY/);
  });

  it('constrains the intent status to its own state machine', () => {
    for (const status of ['queued', 'sending', 'unknown', 'accepted', 'rejected', 'needs_confirmation', 'withdrawn']) {
      insertIntent(`ref-${status}`, status);
    }
    expect(() => insertIntent('ref-x', 'done')).toThrow(/CHECK/);
  });

  it('stores an order only for a known intent, keeps unknown states raw, and protects the intent', () => {
    expect(() => insertOrder('nobody')).toThrow(/FOREIGN KEY/);
    insertIntent('a1');
    insertOrder('a1', { clientOrderRef: 'a1' }, 'onHold');
    expect(db.prepare("SELECT state FROM orders WHERE client_order_ref = 'a1'").pluck().get()).toBe('onHold');
    expect(() => db.prepare("DELETE FROM order_intents WHERE client_order_ref = 'a1'").run()).toThrow(/FOREIGN KEY/);
  });

  it('refuses an order detail that still carries card secrets', () => {
    insertIntent('c1');
    expect(() => insertOrder('c1', { clientOrderRef: 'c1', card_list: [{ card_no: 'N', card_password: 'P' }] })).toThrow(/CHECK/);
    insertOrder('c1', { clientOrderRef: 'c1', card_list: null });
    insertIntent('c2');
    insertOrder('c2', { clientOrderRef: 'c2' });
  });

  it('refuses to lower an order revision', () => {
    insertIntent('r1');
    insertOrder('r1');
    db.prepare("UPDATE orders SET revision = 3 WHERE client_order_ref = 'r1'").run();
    expect(() => db.prepare("UPDATE orders SET revision = 2 WHERE client_order_ref = 'r1'").run()).toThrow(/revision may not decrease/);
  });

  it('keeps client_refund_ref unique, allows refunds not requested here, and cascades with the order', () => {
    insertIntent('f1');
    insertOrder('f1');
    const refund = db.prepare(
      "INSERT INTO refunds (refund_ref, client_refund_ref, client_order_ref, amount_fen, state, created_at, updated_at) VALUES (?, ?, 'f1', 500, 'pending', 1, 1)",
    );
    refund.run('R1', 'cr-1');
    expect(() => refund.run('R2', 'cr-1')).toThrow(/UNIQUE/);
    refund.run('R3', null);
    refund.run('R4', null);
    db.prepare("DELETE FROM orders WHERE client_order_ref = 'f1'").run();
    expect(db.prepare('SELECT count(*) FROM refunds').pluck().get()).toBe(0);
  });

  it('allows at most one refund intent in flight per order', () => {
    insertIntent('g1');
    insertOrder('g1');
    insertRefundIntent('rf-1', 'g1');
    expect(() => insertRefundIntent('rf-2', 'g1')).toThrow(/UNIQUE/);
    db.prepare("UPDATE refund_intents SET status = 'accepted' WHERE client_refund_ref = 'rf-1'").run();
    insertRefundIntent('rf-2', 'g1');
    expect(() => insertRefundIntent('rf-3', 'nobody')).toThrow(/FOREIGN KEY/);
  });
});
