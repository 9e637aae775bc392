// Migration 0003 (vault): sealed BLOBs only, cards tied to their intent and key, one row per card,
// and an append-only audit trail.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, tableNames } from '../temp-database';
import type { TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, 3));
  db = temp.db;
  db.prepare(
    "INSERT INTO order_intents (client_order_ref, product_ref, product_type, units, created_at, updated_at) VALUES ('o1', 1, 'card', 2, 1, 1)",
  ).run();
  db.prepare("INSERT INTO vault_keys (key_id, wrapped_key, wrap_scheme, created_at) VALUES ('k1', ?, 'test', 1)").run(Buffer.alloc(60, 7));
});
afterEach(() => temp.dispose());

const sealed = (byte: number): Buffer => Buffer.alloc(40, byte);

function insertCard(seq: number, cardNo: unknown = sealed(1), orderRef = 'o1', keyId = 'k1'): void {
  db.prepare(
    `INSERT INTO cards (client_order_ref, seq, key_id, card_no_sealed, card_password_sealed, received_at, source)
     VALUES (?, ?, ?, ?, ?, 1, 'webhook')`,
  ).run(orderRef, seq, keyId, cardNo, sealed(2));
}

describe('0003 vault', () => {
  it('creates the vault tables', () => {
    expect(tableNames(db)).toEqual(expect.arrayContaining(['cards', 'vault_keys', 'audit_log']));
    expect(tableColumns(db, 'cards')).toEqual([
      'id', 'client_order_ref', 'seq', 'key_id', 'card_no_sealed', 'card_password_sealed', 'expires_at', 'received_at',
      'source', 'used_at', 'exported_at',
    ]);
    expect(tableColumns(db, 'vault_keys')).toEqual(['key_id', 'wrapped_key', 'wrap_scheme', 'created_at', 'retired_at']);
    expect(tableColumns(db, 'audit_log')).toEqual(['id', 'at', 'action', 'subject', 'card_count', 'format', 'detail']);
  });

  it('stores sealed blobs and refuses a plain-text secret', () => {
    insertCard(0);
    expect(() => insertCard(1, 'CARD-1234-PLAIN')).toThrow(/cannot store TEXT value in BLOB column/);
  });

  it('makes a second delivery of the same card a conflict, not a duplicate', () => {
    insertCard(0);
    insertCard(1);
    expect(() => insertCard(1)).toThrow(/UNIQUE/);
    expect(db.prepare("INSERT OR IGNORE INTO cards (client_order_ref, seq, key_id, card_no_sealed, received_at, source) VALUES ('o1', 1, 'k1', ?, 1, 'detail')").run(sealed(3)).changes).toBe(0);
  });

  it('ties cards to an existing intent and key, and never lets either be deleted under them', () => {
    expect(() => insertCard(0, sealed(1), 'unknown-ref')).toThrow(/FOREIGN KEY/);
    expect(() => insertCard(0, sealed(1), 'o1', 'k-missing')).toThrow(/FOREIGN KEY/);
    insertCard(0);
    expect(() => db.prepare("DELETE FROM order_intents WHERE client_order_ref = 'o1'").run()).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("DELETE FROM vault_keys WHERE key_id = 'k1'").run()).toThrow(/FOREIGN KEY/);
  });

  it('keeps the audit log append-only', () => {
    db.prepare("INSERT INTO audit_log (at, action, subject, card_count, format) VALUES (1, 'export', 'o1', 2, 'csv-zip')").run();
    expect(() => db.prepare("UPDATE audit_log SET action = 'reveal'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT action, card_count FROM audit_log').get()).toEqual({ action: 'export', card_count: 2 });
  });
});
