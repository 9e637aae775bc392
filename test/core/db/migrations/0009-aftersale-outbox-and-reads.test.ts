// Migration 0009 (after-sales outbox, open intents, tracking): a buyer message has exactly one
// client ref of the contract's alphabet and only our statuses, is 'sent' exactly when the merchant's
// messageRef is known, and goes with its case; one unresolved create per order; and cases stored
// before the upgrade start as notified (no burst of old notifications) but unread.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, tableNames, type TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  // Up to 0008: cases and messages exist before the upgrade, as webhooks left them.
  temp = createMigratedDatabase(migrations.slice(0, 8));
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertCase(ref: string): void {
  db.prepare(
    `INSERT INTO aftersale_cases (platform_case_ref, client_order_ref, platform_order_ref, category, description, images_json, state,
       allowed_actions_json, created_at, updated_at, fetched_at) VALUES (?, 'o1', '100', 'other', 'd', '[]', 'open', '["message"]', 1, 2, 3)`,
  ).run(ref);
}

function insertMessage(messageRef: string, caseRef: string, position: number): void {
  db.prepare(
    `INSERT INTO aftersale_messages (message_ref, platform_case_ref, client_message_ref, sender, text, images_json, created_at, position, received_at)
     VALUES (?, ?, NULL, 'merchant', 'hi', '[]', 1, ?, 2)`,
  ).run(messageRef, caseRef, position);
}

const queue = (ref: string, caseRef: string, status = 'queued', messageRef: string | null = null): unknown =>
  db
    .prepare(
      `INSERT INTO aftersale_outbox (client_message_ref, platform_case_ref, text, images_json, status, message_ref, created_at, updated_at)
       VALUES (?, ?, 'text', '[]', ?, ?, 1, 1)`,
    )
    .run(ref, caseRef, status, messageRef);

describe('0009 aftersale outbox and reads', () => {
  it('is migration 9 and adds the outbox, open intent and tracking tables', () => {
    expect(migrations[8]?.id).toBe(9);
    expect(migrations[8]?.name).toBe('aftersale-outbox-and-reads');
    migrate(db);
    expect(tableNames(db)).toEqual(expect.arrayContaining(['aftersale_outbox', 'aftersale_open_intents', 'aftersale_tracking']));
    expect(tableColumns(db, 'aftersale_tracking')).toEqual([
      'platform_case_ref', 'read_position', 'read_at', 'notified_position', 'next_poll_at', 'unchanged_polls', 'last_polled_at',
    ]);
    // 0006's tables are left as they shipped.
    expect(tableColumns(db, 'aftersale_messages')).toEqual([
      'message_ref', 'platform_case_ref', 'client_message_ref', 'sender', 'text', 'images_json', 'created_at', 'position', 'received_at',
    ]);
  });

  it('starts cases stored before the upgrade as notified up to their last message, and unread', () => {
    insertCase('c1');
    insertMessage('m1', 'c1', 0);
    insertMessage('m2', 'c1', 1);
    insertCase('c2');
    migrate(db);
    const rows = db.prepare('SELECT platform_case_ref, read_position, notified_position, next_poll_at FROM aftersale_tracking ORDER BY platform_case_ref').all();
    expect(rows).toEqual([
      { platform_case_ref: 'c1', read_position: -1, notified_position: 1, next_poll_at: null },
      { platform_case_ref: 'c2', read_position: -1, notified_position: -1, next_poll_at: null },
    ]);
  });

  it('holds a message under a contract-shaped ref with our statuses, sent only with the merchant ref, and drops it with its case', () => {
    migrate(db);
    insertCase('c1');
    queue('m_ok-1', 'c1');
    expect(() => queue('m_ok-1', 'c1')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => queue('has space', 'c1')).toThrow(/CHECK/);
    expect(() => queue('x'.repeat(65), 'c1')).toThrow(/CHECK/);
    expect(() => queue('m2', 'c1', 'delivered')).toThrow(/CHECK/);
    expect(() => queue('m3', 'c1', 'sent', null)).toThrow(/CHECK/);
    expect(() => queue('m4', 'c1', 'retrying', 'MSG1')).toThrow(/CHECK/);
    queue('m5', 'c1', 'sent', 'MSG1');
    expect(() => queue('m6', 'missing-case')).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("UPDATE aftersale_outbox SET images_json = '{}' WHERE client_message_ref = 'm5'").run()).toThrow(/CHECK/);
    db.prepare("INSERT INTO aftersale_tracking (platform_case_ref) VALUES ('c1')").run();
    db.prepare("DELETE FROM aftersale_cases WHERE platform_case_ref = 'c1'").run();
    expect(db.prepare('SELECT count(*) FROM aftersale_outbox').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM aftersale_tracking').pluck().get()).toBe(0);
  });

  it('keeps one unresolved create per order, in sending or unknown only', () => {
    migrate(db);
    const intent = (order: string, status: string): unknown =>
      db
        .prepare(`INSERT INTO aftersale_open_intents (client_order_ref, category, description, images_json, status, created_at, updated_at) VALUES (?, 'other', 'd', '[]', ?, 1, 1)`)
        .run(order, status);
    intent('o1', 'sending');
    expect(() => intent('o1', 'unknown')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => intent('o2', 'opened')).toThrow(/CHECK/);
    intent('o2', 'unknown');
  });
});
