// The desk's registry of merchant profiles (contract §15.1) with real SQLite files on disk: the first
// profile is the data folder's own database (so a folder from before profiles keeps everything where
// it was), later ones get their own folder and secret prefix, names are unique regardless of case, ids
// are never reused, and removing one deletes its files and its secrets only.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_SECRET, writeApiKey, writeConnection } from '../../../src/core/connection/connection-settings';
import { createCore, DATABASE_FILE_NAME } from '../../../src/core/create-core';
import { DESK_FILE_NAME, FIRST_PROFILE_FALLBACK_NAME, openDesk, type Desk } from '../../../src/core/desk/desk';
import { LastProfileError, ProfileCardsNotExportedError } from '../../../src/core/desk/profile-removal';
import { ProfileNameError, ProfileNotFoundError } from '../../../src/core/desk/profile-store';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CURRENT_KEY_SECRET } from '../../../src/core/vault/card-cipher';

const logger = (): RedactingLogger => new RedactingLogger({ sink: () => undefined });

describe('the desk: merchant profiles of one data folder', () => {
  const made: string[] = [];
  const opened: Desk[] = [];
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'procure-desk-'));
    made.push(dir);
    return dir;
  };
  const open = (dataDir: string, secrets: MemorySecretStore): Desk => {
    const desk = openDesk({ dataDir, secrets, logger: logger() });
    opened.push(desk);
    return desk;
  };
  afterEach(async () => {
    for (const desk of opened.splice(0)) await desk.close().catch(() => undefined);
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('a new data folder: p1 lives in the folder itself, with unprefixed secrets, and is active', async () => {
    const dataDir = folder();
    const secrets = new MemorySecretStore();
    const desk = open(dataDir, secrets);
    expect(desk.profiles.list()).toMatchObject([{ id: 'p1', name: FIRST_PROFILE_FALLBACK_NAME, folder: '', secretPrefix: '' }]);
    expect(desk.profiles.activeId()).toBe('p1');
    const p1 = await desk.open('p1');
    expect(existsSync(join(dataDir, DATABASE_FILE_NAME))).toBe(true);
    expect(statSync(join(dataDir, DESK_FILE_NAME)).mode & 0o777).toBe(0o600);
    await writeApiKey(p1.secrets, 'AK_first_profile_key_0001');
    expect(await secrets.get(API_KEY_SECRET)).toBe('AK_first_profile_key_0001');
  });

  it('a folder from before profiles: its database becomes p1 where it is, named after its merchant', async () => {
    const dataDir = folder();
    const secrets = new MemorySecretStore();
    // The single-connection layout: the database in the folder itself, the key under its plain name.
    const before = await createCore({ dataDir, secrets, logger: logger() });
    writeConnection(before.db, { baseUrl: 'https://shop.example.com/openapi/v1', userId: '170001', caCertPem: null, accountRef: 9 }, 1_700_000_000);
    await writeApiKey(secrets, 'AK_single_connection_key_01');
    await before.close();
    expect(existsSync(join(dataDir, DESK_FILE_NAME))).toBe(false);

    const desk = open(dataDir, secrets);
    expect(desk.profiles.list()).toMatchObject([{ id: 'p1', name: 'shop.example.com', folder: '' }]);
    const p1 = await desk.open('p1');
    expect(p1.core.connection()).toMatchObject({ baseUrl: 'https://shop.example.com/openapi/v1', userId: '170001' });
    expect(await p1.core.storedApiKey()).toBe('AK_single_connection_key_01');
  });

  it('a second profile: its own folder and database, its secrets under its prefix, never the first one\'s', async () => {
    const dataDir = folder();
    const secrets = new MemorySecretStore();
    const desk = open(dataDir, secrets);
    const p1 = await desk.open('p1');
    const p2 = await desk.add('Video memberships');
    expect(p2.record).toMatchObject({ id: 'p2', folder: 'profiles/p2', secretPrefix: 'profile.p2.' });
    expect(existsSync(join(dataDir, 'profiles', 'p2', DATABASE_FILE_NAME))).toBe(true);
    expect(statSync(join(dataDir, 'profiles', 'p2')).mode & 0o777).toBe(0o700);
    await writeApiKey(p1.secrets, 'AK_key_of_the_first_merchant_1');
    await writeApiKey(p2.secrets, 'AK_key_of_the_second_merchant_2');
    expect(await p1.core.storedApiKey()).toBe('AK_key_of_the_first_merchant_1');
    expect(await p2.core.storedApiKey()).toBe('AK_key_of_the_second_merchant_2');
    // Each vault has its own data key.
    expect(await secrets.get(CURRENT_KEY_SECRET)).not.toBeNull();
    expect(await secrets.get(`profile.p2.${CURRENT_KEY_SECRET}`)).not.toBeNull();
    expect(await secrets.get(CURRENT_KEY_SECRET)).not.toBe(await secrets.get(`profile.p2.${CURRENT_KEY_SECRET}`));
    // The databases are two files: what one stores the other never sees.
    expect(p1.core.db.name).not.toBe(p2.core.db.name);
  });

  it('names: cleaned, unique regardless of case and spaces, refused when empty, too long or path-like', async () => {
    const desk = open(folder(), new MemorySecretStore());
    await desk.add('  Cards   Shop ');
    expect(desk.profiles.find('p2')?.name).toBe('Cards Shop');
    await expect(desk.add('cards shop')).rejects.toThrow(ProfileNameError);
    await expect(desk.add('   ')).rejects.toThrow(ProfileNameError);
    await expect(desk.add('x'.repeat(41))).rejects.toThrow(ProfileNameError);
    await expect(desk.add('a/b')).rejects.toThrow(ProfileNameError);
    expect(() => desk.profiles.rename('p1', 'CARDS SHOP')).toThrow(ProfileNameError);
    expect(desk.profiles.rename('p2', 'cards shop').name).toBe('cards shop');
    expect(desk.profiles.lookup('CARDS shop').id).toBe('p2');
    expect(() => desk.profiles.lookup('nobody')).toThrow(ProfileNotFoundError);
    expect(desk.profiles.list().map((p) => p.id)).toEqual(['p1', 'p2']);
  });

  it('removing: files and secrets of that profile only; the last one stays; ids are never reused', async () => {
    const dataDir = folder();
    const secrets = new MemorySecretStore();
    const desk = open(dataDir, secrets);
    const p1 = await desk.open('p1');
    const p2 = await desk.add('Second');
    await writeApiKey(p1.secrets, 'AK_key_of_the_first_merchant_1');
    await writeApiKey(p2.secrets, 'AK_key_of_the_second_merchant_2');
    desk.profiles.setActive('p2', 1);
    await desk.remove('p2', { discardUnexportedCards: false });
    expect(existsSync(join(dataDir, 'profiles', 'p2'))).toBe(false);
    expect(await secrets.get(`profile.p2.${API_KEY_SECRET}`)).toBeNull();
    expect(await secrets.get(`profile.p2.${CURRENT_KEY_SECRET}`)).toBeNull();
    expect(await secrets.get(API_KEY_SECRET)).toBe('AK_key_of_the_first_merchant_1');
    expect(desk.profiles.activeId()).toBe('p1');
    await expect(desk.remove('p1', { discardUnexportedCards: true })).rejects.toThrow(LastProfileError);
    expect((await desk.add('Third')).record.id).toBe('p3');
  });

  it('removing a profile whose vault holds cards never exported needs the buyer to say they may go', async () => {
    const desk = open(folder(), new MemorySecretStore());
    const p2 = await desk.add('Second');
    p2.core.db.prepare("INSERT INTO order_intents (client_order_ref, product_ref, product_type, variant_ref, units, status, created_at, updated_at) VALUES ('PD_test_ref_0001', 1, 'card', 0, 1, 'accepted', 1, 1)").run();
    p2.core.db.prepare("INSERT INTO cards (client_order_ref, seq, key_id, card_no_sealed, received_at, source) SELECT 'PD_test_ref_0001', 0, key_id, x'00', 1, 'detail' FROM vault_keys LIMIT 1").run();
    await expect(desk.remove('p2', { discardUnexportedCards: false })).rejects.toThrow(ProfileCardsNotExportedError);
    expect(desk.profiles.find('p2')).not.toBeNull();
    await desk.remove('p2', { discardUnexportedCards: true });
    expect(desk.profiles.find('p2')).toBeNull();
  });

  it('the registry survives a restart: profiles, names and the active one', async () => {
    const dataDir = folder();
    const secrets = new MemorySecretStore();
    const first = open(dataDir, secrets);
    await first.add('Second');
    first.profiles.setActive('p2', 1);
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    const again = open(dataDir, secrets);
    expect(again.profiles.list().map((p) => [p.id, p.name])).toEqual([['p1', FIRST_PROFILE_FALLBACK_NAME], ['p2', 'Second']]);
    expect(again.profiles.activeId()).toBe('p2');
  });
});
