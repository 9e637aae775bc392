// The desk: every merchant profile of one data folder (issue 17, contract §15.1). Each profile is a
// whole core of its own — its own database in its own folder, its own secrets under its prefix, its
// own catalog cache and search index, quota model and workers — so a key, a quota wait or a webhook of
// one profile has no path to another. The desk database (desk.sqlite) only says which profiles exist
// and which one is active.
//
// The upgrade from one connection: a data folder from before profiles has its database in the folder
// itself; the first time the desk opens it, that database becomes profile p1 where it is (no file is
// moved, no secret renamed), named after its merchant's host. A new data folder gets the same p1,
// named by the fallback until its account answers (profile-app-name.ts).
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { createCore, DATABASE_FILE_NAME, type Core, type CoreDeps } from '../create-core';
import { openPrivateDatabase } from '../db/open-private-database';
import { openDatabase } from '../db/open-database';
import { readConnection } from '../connection/connection-settings';
import type { SecretStore } from '../secrets/secret-store';
import { systemClock } from '../platform/clock';
import { deskMigrations } from './desk-migrations';
import { checkRemovable, deleteProfileFiles, deleteProfileSecrets, LastProfileError } from './profile-removal';
import { profileSecrets } from './profile-secrets';
import { createLinkStore, type LinkStore } from './link-store';
import { createProfileStore, type ProfileRecord, type ProfileStore } from './profile-store';
import { existsSync } from 'node:fs';
import { accountNames, FIRST_PROFILE_FALLBACK_NAME } from './profile-app-name';

export const DESK_FILE_NAME = 'desk.sqlite';
export { FIRST_PROFILE_FALLBACK_NAME } from './profile-app-name';

export type DeskDeps = CoreDeps;

export interface OpenProfile {
  readonly record: ProfileRecord;
  readonly core: Core;
  /** The profile's view of the secret store (its prefix in front of every name). */
  readonly secrets: SecretStore;
}

export interface Desk {
  readonly db: Database;
  readonly dataDir: string;
  readonly profiles: ProfileStore;
  /** The buyer's links between merchants' variants and their fallback rules (desk 0002, contract §15.4). */
  readonly links: LinkStore;
  /** Opens the profile's core on first use; the same core after that. */
  open(id: string): Promise<OpenProfile>;
  /** The profiles whose core is open now. */
  opened(): OpenProfile[];
  /** A new profile (not connected yet), its core open. */
  add(name: string): Promise<OpenProfile>;
  /** Removes a profile with its data and secrets; refused while its work is open (profile-removal.ts). */
  remove(id: string, options: { readonly discardUnexportedCards: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** The merchant address the first profile's database (the data folder's own) has stored, if any. */
function firstProfileAddress(dataDir: string): string | null {
  const legacyFile = join(dataDir, DATABASE_FILE_NAME);
  if (!existsSync(legacyFile)) return null;
  const db = openDatabase(legacyFile);
  try {
    const hasSettings = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'settings'").get()?.n === 1;
    return hasSettings ? (readConnection(db)?.baseUrl ?? null) : null;
  } catch {
    // A connection that cannot be read leaves the fallback; core reports the database itself.
    return null;
  } finally {
    db.close();
  }
}

/**
 * The registry, with p1 adopted (the data folder's own database) when it has no profile yet: named
 * after its merchant's host when a connection is stored, else the fallback. A first profile still
 * on the fallback with a connection stored (an older registry's "Merchant 1") takes its host now;
 * the account's nickname follows when the merchant answers (desk-service.ts).
 */
function openRegistry(dataDir: string, now: number): { db: Database; profiles: ProfileStore } {
  const db = openPrivateDatabase(join(dataDir, DESK_FILE_NAME), deskMigrations);
  const profiles = createProfileStore(db);
  if (profiles.list().length === 0) profiles.add(FIRST_PROFILE_FALLBACK_NAME, now, { first: true, nameSource: 'fallback' });
  const first = profiles.list().find((record) => record.folder === '' && record.nameSource === 'fallback');
  if (first !== undefined) profiles.nameByApp(first.id, accountNames(null, firstProfileAddress(dataDir)), 'fallback');
  return { db, profiles };
}

export function openDesk(deps: DeskDeps): Desk {
  const clock = deps.clock ?? systemClock;
  const now = (): number => Math.floor(clock.nowMs() / 1000);
  const { db, profiles } = openRegistry(deps.dataDir, now());
  const links = createLinkStore(db);
  const open = new Map<string, Promise<OpenProfile>>();

  const openProfile = (id: string): Promise<OpenProfile> => {
    const existing = open.get(id);
    if (existing !== undefined) return existing;
    const record = profiles.find(id);
    if (record === null) return Promise.reject(new Error(`no merchant profile ${JSON.stringify(id)}`));
    const secrets = profileSecrets(deps.secrets, record.secretPrefix);
    const opening = createCore({ ...deps, clock, dataDir: join(deps.dataDir, record.folder), secrets }).then((core) => ({ record, core, secrets }));
    open.set(id, opening);
    // A core that could not open is not cached: the next call tries again (and reports again).
    opening.catch(() => open.delete(id));
    return opening;
  };
  const settled: OpenProfile[] = [];
  const track = async (id: string): Promise<OpenProfile> => {
    const profile = await openProfile(id);
    if (!settled.includes(profile)) settled.push(profile);
    return profile;
  };

  return {
    db,
    dataDir: deps.dataDir,
    profiles,
    links,
    open: track,
    opened: () => settled.filter((profile) => profiles.find(profile.record.id) !== null).map((profile) => ({ ...profile, record: profiles.find(profile.record.id) ?? profile.record })),
    async add(name) {
      const record = profiles.add(name, now());
      return track(record.id);
    },
    async remove(id, options) {
      if (profiles.list().length <= 1) throw new LastProfileError();
      const profile = await track(id);
      const secretNames = checkRemovable(profile.core.db, options);
      // The row first: a crash after it leaves files nobody opens, never a profile without its data.
      // Its variants leave their links and its name leaves every rule: nothing falls back to a merchant that is gone.
      links.dropProfile(id);
      profiles.delete(id);
      open.delete(id);
      settled.splice(settled.indexOf(profile), 1);
      await profile.core.close();
      await deleteProfileSecrets(profile.secrets, secretNames);
      deleteProfileFiles(deps.dataDir, profile.record.folder);
    },
    async close() {
      const all = await Promise.allSettled([...open.values()]);
      open.clear();
      for (const result of all) if (result.status === 'fulfilled') await result.value.core.close();
      db.close();
    },
  };
}
