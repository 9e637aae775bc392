// Migration 0004 (settings and events): JSON settings that refuse obvious secret names, and a
// webhook inbox deduplicated by eventId that never holds plain card secrets.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { createMigratedDatabase, tableColumns, tableNames } from '../temp-database';
import type { TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase();
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertEvent(eventId: string, body: object, sealed: Buffer | null = null, keyId: string | null = null): void {
  db.prepare(
    `INSERT INTO webhook_inbox (event_id, event_type, occurred_at, received_at, body_json, sealed_payload, key_id)
     VALUES (?, ?, 1, 2, ?, ?, ?)`,
  ).run(eventId, 'order.credentials.ready', JSON.stringify(body), sealed, keyId);
}

describe('0004 settings and events', () => {
  it('creates the settings and inbox tables', () => {
    expect(tableNames(db)).toEqual(expect.arrayContaining(['settings', 'webhook_inbox']));
    expect(tableColumns(db, 'settings')).toEqual(['key', 'value_json', 'updated_at']);
    expect(tableColumns(db, 'webhook_inbox')).toEqual([
      'event_id', 'event_type', 'occurred_at', 'received_at', 'body_json', 'sealed_payload', 'key_id', 'processed_at', 'attempts', 'outcome',
    ]);
  });

  it('stores JSON settings and refuses invalid JSON and API-key-like names', () => {
    const put = db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, 1)');
    put.run('merchant.baseUrl', JSON.stringify('https://merchant.example/openapi/v1'));
    expect(() => put.run('merchant.userId', 'not json')).toThrow(/CHECK/);
    for (const name of ['apiKey', 'API_KEY', 'serviceKey', 'X-Service-Key']) {
      expect(() => put.run(name, '"AK_0"')).toThrow(/CHECK/);
    }
  });

  it('deduplicates events by eventId', () => {
    insertEvent('evt_1', { eventId: 'evt_1', card_list: null });
    expect(() => insertEvent('evt_1', { eventId: 'evt_1' })).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(db.prepare("INSERT OR IGNORE INTO webhook_inbox (event_id, event_type, received_at, body_json) VALUES ('evt_1', 'x', 3, '{}')").run().changes).toBe(0);
  });

  it('refuses a body with card_list and keeps sealed cards with the key that sealed them', () => {
    expect(() => insertEvent('evt_2', { eventId: 'evt_2', card_list: [{ card_no: 'N', card_password: 'P' }] })).toThrow(/CHECK/);
    expect(() => insertEvent('evt_2', { eventId: 'evt_2' }, Buffer.alloc(40, 1), null)).toThrow(/CHECK/);
    expect(() => insertEvent('evt_2', { eventId: 'evt_2' }, Buffer.alloc(40, 1), 'k-missing')).toThrow(/FOREIGN KEY/);
    db.prepare("INSERT INTO vault_keys (key_id, wrapped_key, wrap_scheme, created_at) VALUES ('k1', ?, 'test', 1)").run(Buffer.alloc(60, 7));
    insertEvent('evt_2', { eventId: 'evt_2' }, Buffer.alloc(40, 1), 'k1');
    expect(db.prepare("SELECT processed_at FROM webhook_inbox WHERE event_id = 'evt_2'").pluck().get()).toBeNull();
  });
});
