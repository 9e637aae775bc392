// The profiles table of the desk database (desk 0001): reading, adding, renaming, removing rows, and
// which profile is active. Pure storage: opening cores and deleting files is desk.ts's.
import type { Database } from 'better-sqlite3';
import { cleanProfileName, profileNameKey, profileNameProblem, type ProfileNameProblem } from '../../shared/profile-name';
import { FALLBACK_LABELS } from '../../shared/merchant-label';
import type { ProfileNameSource } from './profile-app-name';

export interface ProfileRecord {
  readonly id: string;
  readonly name: string;
  /** Relative to the data folder; '' is the data folder itself (the first profile). */
  readonly folder: string;
  /** Put in front of every secret name of this profile; '' for the first profile. */
  readonly secretPrefix: string;
  readonly position: number;
  readonly createdAt: number;
  /** Who named it (desk 0003): the buyer's name is never replaced; the app's follows the account. */
  readonly nameSource: ProfileNameSource;
}

export class ProfileNameError extends Error {
  override readonly name = 'ProfileNameError';
  constructor(readonly problem: ProfileNameProblem | 'taken') {
    super(problem === 'taken' ? 'another merchant profile already has this name' : `the profile name is not usable (${problem})`);
  }
}

export class ProfileNotFoundError extends Error {
  override readonly name = 'ProfileNotFoundError';
  constructor(what: string) {
    // The id or name the caller gave is ours (never a secret): naming it helps a script's author.
    super(`no merchant profile ${JSON.stringify(what)}`);
  }
}

interface ProfileRow {
  id: string;
  name: string;
  folder: string;
  secret_prefix: string;
  position: number;
  created_at: number;
  name_source: string;
}

const sourceOf = (value: string): ProfileNameSource => (value === 'account' || value === 'fallback' ? value : 'buyer');

const toRecord = (row: ProfileRow): ProfileRecord => ({
  id: row.id,
  name: row.name,
  folder: row.folder,
  secretPrefix: row.secret_prefix,
  position: row.position,
  createdAt: row.created_at,
  nameSource: sourceOf(row.name_source),
});

const ACTIVE = 'active_profile';
const NEXT_NUMBER = 'next_profile_number';

export interface ProfileStore {
  list(): ProfileRecord[];
  find(id: string): ProfileRecord | null;
  /** By id, or by name regardless of case (the CLI's --profile takes either). */
  lookup(idOrName: string): ProfileRecord;
  /** A new row: p<next number> in profiles/<id>, or the first profile in the data folder itself. */
  add(name: string, now: number, options?: { readonly first?: boolean; readonly nameSource?: ProfileNameSource }): ProfileRecord;
  /** The buyer's name: from now on never replaced by the app's. */
  rename(id: string, name: string): ProfileRecord;
  /**
   * The app's name for a profile the buyer has not named: the first of `names` that is usable and no
   * other profile's. `over` 'fallback' replaces only the fallback (a host never replaces a nickname).
   * The record when its name changed, else null.
   */
  nameByApp(id: string, names: readonly string[], over: 'fallback' | 'app'): ProfileRecord | null;
  delete(id: string): void;
  activeId(): string | null;
  setActive(id: string, now: number): void;
}

function checkedName(db: Database, raw: string, exceptId: string | null): { name: string; key: string } {
  const problem = profileNameProblem(raw);
  if (problem !== null) throw new ProfileNameError(problem);
  const key = profileNameKey(raw);
  const holder = db.prepare<[string], { id: string }>('SELECT id FROM profiles WHERE name_key = ?').get(key);
  if (holder !== undefined && holder.id !== exceptId) throw new ProfileNameError('taken');
  // The fallback is shown as "商户 1" or "Merchant 1" by language: either is taken while a profile has it.
  const fallback = db.prepare<[], { id: string }>("SELECT id FROM profiles WHERE name_source = 'fallback'").get();
  if (fallback !== undefined && fallback.id !== exceptId && FALLBACK_LABELS.some((label) => profileNameKey(label) === key)) throw new ProfileNameError('taken');
  return { name: cleanProfileName(raw), key };
}

export function createProfileStore(db: Database): ProfileStore {
  const setting = (key: string): string | null => db.prepare<[string], { value: string }>('SELECT value FROM desk_settings WHERE key = ?').get(key)?.value ?? null;
  const writeSetting = (key: string, value: string, now: number): void => {
    db.prepare('INSERT INTO desk_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at').run(key, value, now);
  };
  const find = (id: string): ProfileRecord | null => {
    const row = db.prepare<[string], ProfileRow>('SELECT * FROM profiles WHERE id = ?').get(id);
    return row === undefined ? null : toRecord(row);
  };

  return {
    list: () => db.prepare<[], ProfileRow>('SELECT * FROM profiles ORDER BY position, id').all().map(toRecord),
    find,
    lookup(idOrName) {
      const byId = find(idOrName);
      if (byId !== null) return byId;
      const row = db.prepare<[string], ProfileRow>('SELECT * FROM profiles WHERE name_key = ?').get(profileNameKey(idOrName));
      if (row === undefined) throw new ProfileNotFoundError(idOrName);
      return toRecord(row);
    },
    add(raw, now, options = {}) {
      return db.transaction((): ProfileRecord => {
        const { name, key } = checkedName(db, raw, null);
        const number = Number(setting(NEXT_NUMBER) ?? '1');
        const id = `p${number}`;
        const first = options.first === true;
        const position = (db.prepare<[], { p: number | null }>('SELECT max(position) AS p FROM profiles').get()?.p ?? 0) + 1;
        db.prepare('INSERT INTO profiles (id, name, name_key, folder, secret_prefix, position, created_at, name_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
          id,
          name,
          key,
          first ? '' : `profiles/${id}`,
          first ? '' : `profile.${id}.`,
          position,
          now,
          options.nameSource ?? 'buyer',
        );
        writeSetting(NEXT_NUMBER, String(number + 1), now);
        const record = find(id);
        if (record === null) throw new Error('the profile just added cannot be read back');
        return record;
      })();
    },
    rename(id, raw) {
      return db.transaction((): ProfileRecord => {
        if (find(id) === null) throw new ProfileNotFoundError(id);
        const { name, key } = checkedName(db, raw, id);
        db.prepare("UPDATE profiles SET name = ?, name_key = ?, name_source = 'buyer' WHERE id = ?").run(name, key, id);
        const record = find(id);
        if (record === null) throw new ProfileNotFoundError(id);
        return record;
      })();
    },
    nameByApp(id, names, over) {
      return db.transaction((): ProfileRecord | null => {
        const current = find(id);
        if (current === null || current.nameSource === 'buyer' || (over === 'fallback' && current.nameSource !== 'fallback')) return null;
        for (const raw of names) {
          if (profileNameProblem(raw) !== null) continue;
          const key = profileNameKey(raw);
          const holder = db.prepare<[string], { id: string }>('SELECT id FROM profiles WHERE name_key = ?').get(key);
          if (holder !== undefined && holder.id !== id) continue;
          const name = cleanProfileName(raw);
          if (name === current.name && current.nameSource === 'account') return null;
          db.prepare("UPDATE profiles SET name = ?, name_key = ?, name_source = 'account' WHERE id = ?").run(name, key, id);
          return find(id);
        }
        return null;
      })();
    },
    delete(id) {
      db.transaction(() => {
        db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
        if (setting(ACTIVE) === id) db.prepare('DELETE FROM desk_settings WHERE key = ?').run(ACTIVE);
      })();
    },
    activeId() {
      const id = setting(ACTIVE);
      return id !== null && find(id) !== null ? id : (db.prepare<[], { id: string }>('SELECT id FROM profiles ORDER BY position, id LIMIT 1').get()?.id ?? null);
    },
    setActive(id, now) {
      if (find(id) === null) throw new ProfileNotFoundError(id);
      writeSetting(ACTIVE, id, now);
    },
  };
}
