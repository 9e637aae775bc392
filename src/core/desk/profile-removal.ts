// What removing a profile checks and deletes (contract §15.1). Refused while its work is open (the
// same open work that refuses switching accounts: an order not yet accepted would be lost with its
// intent, a refund would never be followed), and refused while its vault holds cards never exported
// unless the buyer said they may go (the screen offers the export first). Then its secrets and its
// database files go; the folder of a later profile goes with them.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { ProfileWork } from '../../shared/ipc/views/profiles';
import { API_KEY_SECRET } from '../connection/connection-settings';
import { hasOpenWork, openWork, type OpenWork } from '../connection/merchant-switch';
import { DATABASE_FILE_NAME } from '../create-core';
import { sqliteFiles } from '../platform/private-files';
import type { SecretStore } from '../secrets/secret-store';
import { CURRENT_KEY_SECRET, keySecretName } from '../vault/card-cipher';

export class ProfileBusyError extends Error {
  override readonly name = 'ProfileBusyError';
  constructor(readonly work: OpenWork) {
    super(
      `this merchant profile still has open work (${work.orderIntents} order(s) not yet accepted, ${work.orders} order(s) not finished, ${work.refunds} refund(s) open, ${work.aftersales} after-sales message(s) or case(s) not yet sent): finish or withdraw them before removing it`,
    );
  }
}

export class ProfileCardsNotExportedError extends Error {
  override readonly name = 'ProfileCardsNotExportedError';
  constructor(readonly cards: number) {
    super(`this merchant profile's vault holds ${cards} card(s) never exported: export them first, or say they may be deleted with the profile`);
  }
}

export class LastProfileError extends Error {
  override readonly name = 'LastProfileError';
  constructor() {
    super('the last merchant profile cannot be removed: disconnect it instead, or add another first');
  }
}

export function profileWork(db: Database): ProfileWork {
  const cards = db.prepare<[], { n: number; fresh: number }>('SELECT count(*) AS n, count(*) FILTER (WHERE exported_at IS NULL) AS fresh FROM cards').get();
  return { ...openWork(db), cards: cards?.n ?? 0, cardsNotExported: cards?.fresh ?? 0 };
}

/** Throws when the profile may not be removed now; otherwise returns the names of its secrets. */
export function checkRemovable(db: Database, options: { readonly discardUnexportedCards: boolean }): string[] {
  const work = profileWork(db);
  if (hasOpenWork(work)) throw new ProfileBusyError(work);
  if (work.cardsNotExported > 0 && !options.discardUnexportedCards) throw new ProfileCardsNotExportedError(work.cardsNotExported);
  const keyIds = db.prepare<[], { key_id: string }>('SELECT key_id FROM vault_keys UNION SELECT DISTINCT key_id FROM cards').all().map((row) => row.key_id);
  return [API_KEY_SECRET, CURRENT_KEY_SECRET, ...keyIds.map(keySecretName)];
}

export async function deleteProfileSecrets(secrets: SecretStore, names: readonly string[]): Promise<void> {
  for (const name of names) await secrets.delete(name);
}

/** The profile's database files; its own folder too when it has one (never the data folder itself). */
export function deleteProfileFiles(dataDir: string, folder: string): void {
  const dir = join(dataDir, folder);
  for (const file of sqliteFiles(join(dir, DATABASE_FILE_NAME))) rmSync(file, { force: true });
  if (folder !== '') rmSync(dir, { recursive: true, force: true });
}
