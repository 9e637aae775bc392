// Migration 0006 (after-sales cache and inbox retry): a retry time per inbox event that goes with
// its event (0004's table untouched), cases keep their JSON arrays valid, and a message is stored once by
// messageRef, at most once per clientMessageRef within a case, and goes with its case.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, tableNames, type TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase();
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertCase(ref: string, images = '[]'): void {
  db.prepare(
    `INSERT INTO aftersale_cases (platform_case_ref, client_order_ref, platform_order_ref, category, description, images_json, state,
       allowed_actions_json, created_at, updated_at, fetched_at) VALUES (?, 'o1', '100', 'other', 'd', ?, 'open', '["message"]', 1, 2, 3)`,
  ).run(ref, images);
}

const insertMessage = (messageRef: string, caseRef: string, clientRef: string | null): unknown =>
  db
    .prepare(
      `INSERT INTO aftersale_messages (message_ref, platform_case_ref, client_message_ref, sender, text, images_json, created_at, position, received_at)
       VALUES (?, ?, ?, 'merchant', 'hi', '[]', 1, 0, 2)`,
    )
    .run(messageRef, caseRef, clientRef);

describe('0006 aftersale cache and inbox retry', () => {
  it('is the sixth shipped migration', () => {
    expect(migrations[5]?.id).toBe(6);
    expect(migrations[5]?.name).toBe('aftersale-cache-and-inbox-retry');
  });

  it('adds the retry, case and message tables and leaves webhook_inbox as 0004 made it', () => {
    expect(tableColumns(db, 'webhook_inbox')).not.toContain('next_attempt_at');
    expect(tableColumns(db, 'webhook_inbox_retries')).toEqual(['event_id', 'next_attempt_at']);
    expect(tableNames(db)).toEqual(expect.arrayContaining(['aftersale_cases', 'aftersale_messages', 'webhook_inbox_retries']));
    expect(tableColumns(db, 'aftersale_messages')).toEqual([
      'message_ref', 'platform_case_ref', 'client_message_ref', 'sender', 'text', 'images_json', 'created_at', 'position', 'received_at',
    ]);
  });

  it('keeps one retry time per existing event and drops it with the event', () => {
    db.prepare("INSERT INTO webhook_inbox (event_id, event_type, received_at, body_json) VALUES ('e1', 'order.changed', 1, '{}')").run();
    db.prepare("INSERT INTO webhook_inbox_retries (event_id, next_attempt_at) VALUES ('e1', 10)").run();
    expect(() => db.prepare("INSERT INTO webhook_inbox_retries (event_id, next_attempt_at) VALUES ('e1', 20)").run()).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => db.prepare("INSERT INTO webhook_inbox_retries (event_id, next_attempt_at) VALUES ('nope', 20)").run()).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM webhook_inbox WHERE event_id = 'e1'").run();
    expect(db.prepare('SELECT count(*) FROM webhook_inbox_retries').pluck().get()).toBe(0);
  });

  it('refuses invalid JSON arrays, stores a message once, and deletes messages with their case', () => {
    expect(() => insertCase('c0', '{"a":1}')).toThrow(/CHECK/);
    insertCase('c1');
    insertMessage('m1', 'c1', null);
    expect(() => insertMessage('m1', 'c1', null)).toThrow(/UNIQUE|PRIMARY KEY/);
    insertMessage('m2', 'c1', 'client-1');
    expect(() => insertMessage('m3', 'c1', 'client-1')).toThrow(/UNIQUE/);
    expect(() => insertMessage('m4', 'missing-case', null)).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM aftersale_cases WHERE platform_case_ref = 'c1'").run();
    expect(db.prepare('SELECT count(*) FROM aftersale_messages').pluck().get()).toBe(0);
  });
});
