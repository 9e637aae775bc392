// Desk migration 0003 (who named a profile): a registry from before it had no record of that; exactly
// the first profile (folder '') named "Merchant 1" — the only name the app gave without an address —
// becomes the app's fallback; every other name is the buyer's ("merchant 1" typed in another case,
// "Merchant 1" on a later profile, a host), and the store refuses a source outside the three.
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { deskMigrations } from '../../../src/core/desk/desk-migrations';
import { migrate } from '../../../src/core/db/migrate';
import { createProfileStore } from '../../../src/core/desk/profile-store';
import { createTempDatabase, tableColumns, type TempDatabase } from '../db/temp-database';

let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

/** A registry as the version before 0003 left it, with these rows (id, name, folder). */
function oldRegistry(rows: readonly [string, string, string][]): Database {
  temp = createTempDatabase();
  migrate(temp.db, { migrations: deskMigrations.filter((migration) => migration.id < 3), now: () => 1 });
  for (const [id, name, folder] of rows) {
    temp.db.prepare('INSERT INTO profiles (id, name, name_key, folder, secret_prefix, position, created_at) VALUES (?, ?, ?, ?, ?, 1, 1)').run(id, name, name.toLowerCase(), folder, folder === '' ? '' : `profile.${id}.`);
  }
  migrate(temp.db, { migrations: deskMigrations, now: () => 2 });
  return temp.db;
}
const sources = (db: Database): Record<string, string> => Object.fromEntries(createProfileStore(db).list().map((record) => [record.id, record.nameSource]));

describe('desk 0003 name source', () => {
  it('is desk migration 3, one column', () => {
    expect(deskMigrations.find((migration) => migration.id === 3)).toMatchObject({ name: 'name source' });
    const db = oldRegistry([]);
    expect(tableColumns(db, 'profiles')).toEqual(['id', 'name', 'name_key', 'folder', 'secret_prefix', 'position', 'created_at', 'name_source']);
    expect(() => db.prepare("INSERT INTO profiles (id, name, name_key, folder, secret_prefix, position, created_at, name_source) VALUES ('p9', 'x', 'x', 'f', 's', 1, 1, 'nobody')").run()).toThrow(/CHECK/);
  });

  it('takes only the first profile named exactly "Merchant 1" as the app’s fallback', () => {
    expect(sources(oldRegistry([['p1', 'Merchant 1', ''], ['p2', 'Cards', 'profiles/p2']]))).toEqual({ p1: 'fallback', p2: 'buyer' });
    temp?.dispose();
    expect(sources(oldRegistry([['p1', 'merchant 1', ''], ['p2', 'Cards', 'profiles/p2']]))).toEqual({ p1: 'buyer', p2: 'buyer' });
    temp?.dispose();
    expect(sources(oldRegistry([['p1', 'shop.example.com', ''], ['p2', 'Merchant 1', 'profiles/p2']]))).toEqual({ p1: 'buyer', p2: 'buyer' });
  });

  it('the store: a rename is the buyer’s for good; the app names only what the buyer has not', () => {
    const db = oldRegistry([['p1', 'Merchant 1', ''], ['p2', 'Cards', 'profiles/p2']]);
    const store = createProfileStore(db);
    // Unusable (empty, too long, a path) and taken names are passed over.
    expect(store.nameByApp('p1', ['', 'x'.repeat(41), 'a/b', 'cards', 'Shop A'], 'app')?.name).toBe('Shop A');
    expect(store.find('p1')?.nameSource).toBe('account');
    // A host replaces only the fallback; a nickname replaces the account's earlier name.
    expect(store.nameByApp('p1', ['127.0.0.1:9'], 'fallback')).toBeNull();
    expect(store.nameByApp('p1', ['Shop B'], 'app')?.name).toBe('Shop B');
    expect(store.nameByApp('p1', ['Shop B'], 'app')).toBeNull();
    store.rename('p1', 'Shop B');
    expect(store.find('p1')?.nameSource).toBe('buyer');
    expect(store.nameByApp('p1', ['Shop C'], 'app')).toBeNull();
    expect(store.nameByApp('p2', ['Shop C'], 'app')).toBeNull();
    expect(store.find('p1')?.name).toBe('Shop B');
  });
});
