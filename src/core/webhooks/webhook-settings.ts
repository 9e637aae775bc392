// What the webhook side keeps in the settings table (0004), shared between processes on one data
// folder: the running receiver's live callback URL with a heartbeat, and the callback token.
//
// Why it looks like this:
// - The process that runs the receiver (the app, or `cli run`) writes the live URL and refreshes a
//   heartbeat; another process creating an order (`cli order create`) puts that URL into
//   `orderCallbackUrl` only while the heartbeat is fresh. A stale record (the runner died without
//   clearing it) is ignored: an order bound to a dead URL loses its webhooks (interface v1 §6.1.4: a message
//   keeps its address), so no URL beats a wrong one; polling covers the order either way.
// - The token is kept so that a restart on the same port and public URL (`url:` tunnels) keeps the
//   callback URL that earlier orders carry. It is a capability, not a credential (every event is
//   re-checked with the merchant before it is acted on), and it stays in this local database.
// - The port the receiver last listened on, when the settings leave it free (port 0): the next start
//   (a replaced key, a restart) listens there again if it can, so orders sent earlier, whose callback
//   address the merchant keeps (interface v1 §4.2 rule 1), still reach this receiver.
import type { Database } from 'better-sqlite3';
import { z } from 'zod';

const LIVE_URL_KEY = 'events.liveCallbackUrl';
const TOKEN_KEY = 'events.callbackToken';
const LAST_PORT_KEY = 'events.lastReceiverPort';

/** A heartbeat older than this is a runner that is gone. */
export const LIVE_URL_FRESH_MS = 45_000;
/** How often the runner refreshes it (well inside the freshness window). */
export const LIVE_URL_HEARTBEAT_MS = 10_000;

const liveSchema = z.object({ url: z.string().min(1), heartbeatAtMs: z.number(), pid: z.number().int() });
export type LiveCallbackRecord = z.infer<typeof liveSchema>;

function readSetting(db: Database, key: string): unknown {
  const row = db.prepare<[string], { value_json: string }>('SELECT value_json FROM settings WHERE key = ?').get(key);
  return row === undefined ? undefined : (JSON.parse(row.value_json) as unknown);
}

function writeSetting(db: Database, key: string, value: unknown, nowMs: number): void {
  db.prepare(
    'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
  ).run(key, JSON.stringify(value), Math.floor(nowMs / 1000));
}

export function writeLiveCallbackUrl(db: Database, url: string, nowMs: number, pid: number = process.pid): void {
  writeSetting(db, LIVE_URL_KEY, { url, heartbeatAtMs: nowMs, pid } satisfies LiveCallbackRecord, nowMs);
}

/** Removes the record, only if it is still this URL (another runner may have taken over). */
export function clearLiveCallbackUrl(db: Database, url: string): void {
  db.prepare("DELETE FROM settings WHERE key = ? AND json_extract(value_json, '$.url') = ?").run(LIVE_URL_KEY, url);
}

export function readLiveCallbackRecord(db: Database): LiveCallbackRecord | null {
  const parsed = liveSchema.safeParse(readSetting(db, LIVE_URL_KEY));
  return parsed.success ? parsed.data : null;
}

/** The live callback URL while its runner's heartbeat is fresh at `nowMs`, else null. */
export function readLiveCallbackUrl(db: Database, nowMs: number, freshMs: number = LIVE_URL_FRESH_MS): string | null {
  const record = readLiveCallbackRecord(db);
  if (record === null) return null;
  const age = nowMs - record.heartbeatAtMs;
  return age >= -freshMs && age <= freshMs ? record.url : null;
}

export function readCallbackToken(db: Database): string | null {
  const value = readSetting(db, TOKEN_KEY);
  return typeof value === 'string' ? value : null;
}

export function writeCallbackToken(db: Database, token: string, nowMs: number): void {
  writeSetting(db, TOKEN_KEY, token, nowMs);
}

/** The port the receiver last listened on (a free one the settings did not fix), or null. */
export function readLastReceiverPort(db: Database): number | null {
  const value = readSetting(db, LAST_PORT_KEY);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 65_535 ? value : null;
}

export function writeLastReceiverPort(db: Database, port: number, nowMs: number): void {
  writeSetting(db, LAST_PORT_KEY, port, nowMs);
}
