// The upgrade from one merchant connection to profiles (issue 17, contract §15.1), on a copy of a data
// folder the released version (a637f48, before profiles) wrote with its own CLI against a sandbox
// (test/fixtures/single-connection-v16/README.md): the new code adopts it as profile p1, named after
// its merchant's host, with its connection, catalog, order and cards where they were; a card reveals
// to the very secret the old version revealed, the API key is found under its old name, the profile
// database's migrations run on it, and a second profile leaves p1's data and secrets as they were.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeskService } from '../../../src/core/app/desk-service';
import type { AppService } from '../../../src/core/app/app-service';
import { API_KEY_SECRET } from '../../../src/core/connection/connection-settings';
import { migrations } from '../../../src/core/db/migrations';
import { openDesk, type Desk } from '../../../src/core/desk/desk';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { PassphraseSecretStore } from '../../../src/core/secrets/passphrase-secret-store';
import { CURRENT_KEY_SECRET } from '../../../src/core/vault/card-cipher';
import type { IpcResult } from '../../../src/shared/ipc/ipc-result';
import { jsonOf, runCli } from '../../cli/cli-kit';

const FIXTURE = 'test/fixtures/single-connection-v16';
/** What the fixture's README says; the old version's secret file is sealed with it. */
const PASSPHRASE = 'v16 fixture passphrase (test only)';
/** What the old version's connect, sync, order and reveal showed when the fixture was made. */
const OLD = {
  host: '127.0.0.1:40385',
  baseUrl: 'https://127.0.0.1:40385/openapi/v1',
  userId: '170001',
  apiKey: 'AK_c245be55f2d0070825a8cad8167274e8',
  products: 60,
  order: 'o_suk3vRSmf3CkoKSN8J81VAo7XECyQxR4',
  platformOrderRef: '2026112600000001',
  totalFen: 3620,
  cards: [
    { seq: 0, cardNo: '6151135613814343', cardPassword: 'B5V8-FML3-U49Q-27ST' },
    { seq: 1, cardNo: '3034584642357459', cardPassword: 'D6VA-XM35-N3S2-A76A' },
  ],
} as const;

let root: string;
let dataDir: string;
let desk: Desk | null = null;

function value<T>(result: IpcResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function openService(): Promise<{ app: AppService; store: PassphraseSecretStore }> {
  const store = await PassphraseSecretStore.open({ filePath: join(dataDir, 'secrets.json'), passphrase: PASSPHRASE });
  const logger = new RedactingLogger({ sink: () => undefined });
  desk = openDesk({ dataDir, secrets: store, logger });
  const app = createDeskService(desk, { startDemoMerchant: () => Promise.reject(new Error('no demo here')) }, { logger, secrets: store });
  return { app, store };
}

const appliedMigrations = (file: string): number[] => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { id: number }>('SELECT id FROM schema_migrations ORDER BY id').all().map((row) => row.id);
  } finally {
    db.close();
  }
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'procure-v16-upgrade-'));
  dataDir = join(root, 'data');
  cpSync(FIXTURE, dataDir, { recursive: true, filter: (source) => !source.endsWith('README.md') });
});

afterEach(async () => {
  await desk?.close();
  desk = null;
  rmSync(root, { recursive: true, force: true });
});

describe('a single-connection data folder of the released version', () => {
  it('becomes profile p1 with its connection, catalog, order and cards; a card reveals the old secret; the key keeps its name', async () => {
    const before = appliedMigrations(join(dataDir, 'procure-desk.sqlite'));
    expect(before.length).toBeGreaterThan(0);
    const { app, store } = await openService();

    const profiles = value<{ activeId: string; profiles: { id: string; name: string; connected: boolean; baseUrl: string | null; userId: string | null }[] }>(await app.handle('profiles.list', undefined));
    expect(profiles.activeId).toBe('p1');
    expect(profiles.profiles).toMatchObject([{ id: 'p1', name: OLD.host, connected: true, baseUrl: OLD.baseUrl, userId: OLD.userId }]);
    expect(desk?.profiles.find('p1')).toMatchObject({ folder: '', secretPrefix: '' });

    const status = value<{ keyStored: boolean; baseUrl: string | null; userId: string | null }>(await app.handle('connection.status', undefined));
    expect(status).toMatchObject({ keyStored: true, baseUrl: OLD.baseUrl, userId: OLD.userId });
    expect(await store.get(API_KEY_SECRET)).toBe(OLD.apiKey);

    const found = value<{ total: number }>(await app.handle('catalog.search', { limit: 200 }));
    expect(found.total).toBe(OLD.products);

    const orders = value<{ clientOrderRef: string; merchant: { profileId: string; name: string } }[]>(await app.handle('orders.list', {}));
    expect(orders).toMatchObject([{ clientOrderRef: OLD.order, merchant: { profileId: 'p1', name: OLD.host } }]);
    const order = value<{ platformOrderRef: string | null; totalFen: number | null; state: string | null }>(await app.handle('orders.get', { clientOrderRef: OLD.order }));
    expect(order).toMatchObject({ platformOrderRef: OLD.platformOrderRef, totalFen: OLD.totalFen, state: 'completed' });

    for (const card of OLD.cards) {
      const revealed = value<{ cardNo: string; cardPassword: string | null }>(await app.handle('vault.reveal', { clientOrderRef: OLD.order, seq: card.seq }));
      expect(revealed).toMatchObject({ cardNo: card.cardNo, cardPassword: card.cardPassword });
    }
    // Every migration of today's profile database ran on the old one, the old ones kept.
    const after = appliedMigrations(join(dataDir, 'procure-desk.sqlite'));
    expect(after).toEqual(migrations.map((migration) => migration.id));
    expect(after.slice(0, before.length)).toEqual(before);
  }, 60_000);

  it('a second profile leaves p1 where it was: its data, its key and its vault key under their old names', async () => {
    const { app, store } = await openService();
    const oldSecrets = { key: await store.get(API_KEY_SECRET), vault: await store.get(CURRENT_KEY_SECRET) };
    expect(oldSecrets.vault).not.toBeNull();
    const listed = value<{ activeId: string; profiles: { id: string }[] }>(await app.handle('profiles.add', { name: 'Second merchant' }));
    expect(listed.profiles.map((p) => p.id)).toEqual(['p1', 'p2']);
    // The new profile's vault key lives under its own prefix, never over p1's.
    const p2 = await desk?.open('p2');
    expect(p2?.record).toMatchObject({ folder: 'profiles/p2', secretPrefix: 'profile.p2.' });
    expect(await store.get(API_KEY_SECRET)).toBe(oldSecrets.key);
    expect(await store.get(CURRENT_KEY_SECRET)).toBe(oldSecrets.vault);
    expect(await store.get(`profile.p2.${API_KEY_SECRET}`)).toBeNull();

    value(await app.handle('profiles.switch', { profileId: 'p2' }));
    const p2Status = value<{ keyStored: boolean }>(await app.handle('connection.status', undefined));
    expect(p2Status.keyStored).toBe(false);
    // p1's order still opens from p2's screen (routed by its ref), its cards still reveal.
    const order = value<{ platformOrderRef: string | null }>(await app.handle('orders.get', { clientOrderRef: OLD.order }));
    expect(order.platformOrderRef).toBe(OLD.platformOrderRef);
    const card = OLD.cards[1];
    const revealed = value<{ cardNo: string; cardPassword: string | null }>(await app.handle('vault.reveal', { clientOrderRef: OLD.order, seq: card.seq }));
    expect(revealed).toMatchObject({ cardNo: card.cardNo, cardPassword: card.cardPassword });
    const both = value<{ activeId: string; profiles: { id: string; connected: boolean; userId: string | null }[] }>(await app.handle('profiles.list', undefined));
    expect(both.activeId).toBe('p2');
    expect(both.profiles.map((p) => [p.id, p.connected, p.userId])).toEqual([
      ['p1', true, OLD.userId],
      ['p2', false, null],
    ]);
  }, 60_000);

  it('the new CLI opens it too: profiles list names p1 after its host, vault reveal prints the old codes', async () => {
    const listed = await runCli(dataDir, ['profiles', 'list', '--json'], { passphrase: PASSPHRASE });
    expect(listed.code, listed.stderr).toBe(0);
    expect(jsonOf(listed)).toEqual([{ id: 'p1', name: OLD.host, active: true, connected: true, baseUrl: OLD.baseUrl, userId: OLD.userId }]);
    const revealed = await runCli(dataDir, ['vault', 'reveal', OLD.order, '--profile', OLD.host.toUpperCase(), '--yes', '--json'], { passphrase: PASSPHRASE });
    expect(revealed.code, revealed.stderr).toBe(0);
    expect(jsonOf<{ cards: { cardNo: string; cardPassword: string | null }[] }>(revealed).cards.map((c) => [c.cardNo, c.cardPassword])).toEqual(OLD.cards.map((c) => [c.cardNo, c.cardPassword]));
  }, 60_000);
});
