// The top-up entries of an accepted order (the account that was recharged), kept sealed with the
// vault's cipher and bound to the intent (0010), so a finished order can still say which account it
// recharged. Opened only for the order detail and the list (which masks the accounts). The labels of
// the options picked are sealed with them (contract §7.11): with its group, a label says what was chosen.
import type { OptionLabels } from '../../shared/purchase-option-labels';
import type { CardCipher } from '../vault/card-cipher';
import { readStoredEntries, storedEntriesJson, type StoredEntries } from './stored-entries';

type Entries = Record<string, string>[];

const recordOf = (clientOrderRef: string) => ({ clientOrderRef, field: 'recharged_entries' as const });

export function sealRechargedEntries(cipher: CardCipher, clientOrderRef: string, entries: Entries | null, optionLabels: OptionLabels[] | null): Buffer | null {
  const json = entries === null ? null : storedEntriesJson(entries, optionLabels ?? []);
  return json === null ? null : cipher.seal(json, recordOf(clientOrderRef));
}

/**
 * Null when nothing was kept; throws CardDecryptionError when the bytes were altered or moved. Entries
 * sealed before labels were kept open with `optionLabels: null`.
 */
export function openRechargedEntries(cipher: CardCipher, clientOrderRef: string, sealed: Uint8Array | null): StoredEntries | null {
  if (sealed === null) return null;
  return readStoredEntries(cipher.unseal(sealed, recordOf(clientOrderRef)));
}
