// The top-up entries of an accepted order (the account that was recharged), kept sealed with the
// vault's cipher and bound to the intent (0010), so a finished order can still say which account it
// recharged. Opened only for the order detail; the list shows them masked.
import type { CardCipher } from '../vault/card-cipher';

type Entries = Record<string, string>[];

const recordOf = (clientOrderRef: string) => ({ clientOrderRef, field: 'recharged_entries' as const });

export function sealRechargedEntries(cipher: CardCipher, clientOrderRef: string, entries: Entries | null): Buffer | null {
  if (entries === null || entries.length === 0) return null;
  return cipher.seal(JSON.stringify(entries), recordOf(clientOrderRef));
}

/** Null when nothing was kept; throws CardDecryptionError when the bytes were altered or moved. */
export function openRechargedEntries(cipher: CardCipher, clientOrderRef: string, sealed: Uint8Array | null): Entries | null {
  if (sealed === null) return null;
  const parsed: unknown = JSON.parse(cipher.unseal(sealed, recordOf(clientOrderRef)));
  if (!Array.isArray(parsed)) return null;
  return parsed.map((group: unknown) => {
    const out: Record<string, string> = {};
    if (typeof group === 'object' && group !== null) {
      for (const [key, value] of Object.entries(group)) if (typeof value === 'string') out[key] = value;
    }
    return out;
  });
}
