// The buyer's own marks on cards: "used" (redeemed, so it is not handed out twice) and "exported"
// (set by every export, and by hand for cards passed on some other way). Marking is bookkeeping, not
// a view of a secret, so it is not audited.
import type { Database } from 'better-sqlite3';
import type { CardKey } from '../../shared/ipc/views/vault';

export type CardFlag = 'used' | 'exported';

/** The buyer's flags on cards (used, exported). */
export interface VaultMarks {
  /** Sets or clears the flag on the given cards; answers how many cards exist among them and their orders. */
  mark(cards: readonly CardKey[], flag: CardFlag, value: boolean, now: number): {
      updated: number;
      clientOrderRefs: string[];
  };
}

export function createVaultMarks(db: Database): VaultMarks {
  const keysJson = (cards: readonly CardKey[]): string => JSON.stringify(cards.map((k) => ({ clientOrderRef: k.clientOrderRef, seq: k.seq })));
  const where = `(client_order_ref, seq) IN (SELECT json_extract(value, '$.clientOrderRef'), json_extract(value, '$.seq') FROM json_each(@cards))`;
  // Marking keeps the first time (a second "used" does not move it); clearing forgets it.
  const set = {
    used: db.prepare<{ cards: string; now: number | null }>(`UPDATE cards SET used_at = CASE WHEN @now IS NULL THEN NULL ELSE coalesce(used_at, @now) END WHERE ${where}`),
    exported: db.prepare<{ cards: string; now: number | null }>(`UPDATE cards SET exported_at = CASE WHEN @now IS NULL THEN NULL ELSE coalesce(exported_at, @now) END WHERE ${where}`),
  };
  const refs = db.prepare<{ cards: string }, { client_order_ref: string }>(`SELECT DISTINCT client_order_ref FROM cards WHERE ${where}`);

  return {
    /** Sets or clears the flag on the given cards; answers how many cards exist among them and their orders. */
    mark(cards: readonly CardKey[], flag: CardFlag, value: boolean, now: number): { updated: number; clientOrderRefs: string[] } {
      const json = keysJson(cards);
      return db.transaction(() => {
        const updated = set[flag].run({ cards: json, now: value ? now : null }).changes;
        return { updated, clientOrderRefs: refs.all({ cards: json }).map((r) => r.client_order_ref) };
      })();
    },
  };
}

