// The low-balance line the buyer set in Settings (lowBalanceFen; 0: off), and whether the balance has
// crossed it. A crossing is a balance below the line after one at or above it: notified once, not on
// every read that is still below; going back above and below again is a new crossing. Whether the
// last balance seen was below is kept in the settings table, so a restart (or core's process coming
// back) does not announce the same crossing again. A balance seen for the first time below the line
// counts as a crossing: the buyer has not been told yet.
import type { Database } from 'better-sqlite3';
import { z } from 'zod';

const STATE_KEY = 'books.lowBalanceState';
const stateSchema = z.object({ below: z.boolean() });

function readBelow(db: Database): boolean {
  const row = db.prepare<[string], { value_json: string }>('SELECT value_json FROM settings WHERE key = ?').get(STATE_KEY);
  if (row === undefined) return false;
  const parsed = stateSchema.safeParse(JSON.parse(row.value_json));
  return parsed.success && parsed.data.below;
}

/** Notes a balance against the line; answers true when this balance crossed it (notify now). */
export function noteBalanceAgainstLine(db: Database, balanceFen: number, lineFen: number, nowSeconds: number): boolean {
  const below = lineFen > 0 && balanceFen < lineFen;
  return db.transaction(() => {
    const wasBelow = readBelow(db);
    if (wasBelow !== below) {
      db.prepare(
        'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
      ).run(STATE_KEY, JSON.stringify({ below }), nowSeconds);
    }
    return below && !wasBelow;
  }).immediate();
}
