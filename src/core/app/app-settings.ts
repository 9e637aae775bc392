// The app's own preferences (language, theme, webhook tunnel and port, the low-balance line, the desktop's close to tray and start at login) and whether the connected
// merchant is the built-in demo, kept in the settings table (0004) as JSON. Never a secret: the
// table's CHECK refuses key-like names, and nothing here holds one.
import type { Database } from 'better-sqlite3';
import { DEFAULT_LOW_BALANCE_FEN, settingsSchema, type Settings } from '../../shared/ipc/views/settings';
import { RETIRED_LOCALTUNNEL } from '../webhooks/tunnels/tunnel-spec';

const SETTINGS_KEY = 'app.preferences';
const DEMO_KEY = 'app.connectionIsDemo';

const DEFAULT_SETTINGS: Settings = { language: 'system', theme: 'system', webhookTunnel: 'off', webhookPort: 0, webhookNotice: 'none', lowBalanceFen: DEFAULT_LOW_BALANCE_FEN, closeToTray: true, startAtLogin: false };

function read(db: Database, key: string): unknown {
  const row = db.prepare<[string], { value_json: string }>('SELECT value_json FROM settings WHERE key = ?').get(key);
  return row === undefined ? undefined : (JSON.parse(row.value_json) as unknown);
}

function write(db: Database, key: string, value: unknown, nowSeconds: number): void {
  db.prepare(
    'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
  ).run(key, JSON.stringify(value), nowSeconds);
}

/** Stored values over the defaults; a value a newer or older build wrote that no longer fits is replaced by its default. */
export function readSettings(db: Database): Settings {
  const stored = read(db, SETTINGS_KEY);
  if (typeof stored !== 'object' || stored === null) return { ...DEFAULT_SETTINGS };
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    const one = settingsSchema.shape[key].safeParse((stored as Record<string, unknown>)[key]);
    if (one.success) merged[key] = one.data;
  }
  return settingsSchema.parse(merged);
}

export function writeSettings(db: Database, change: Readonly<Partial<Record<keyof Settings, unknown>>>, nowSeconds: number): Settings {
  const next = settingsSchema.parse({ ...readSettings(db), ...change });
  write(db, SETTINGS_KEY, next, nowSeconds);
  return next;
}

/**
 * A localtunnel choice stored by an earlier build becomes polling ('off'), with a notice the Settings
 * screen shows until the buyer chooses again. Answers whether it changed anything; run at start-up,
 * before the webhook side is built from the settings.
 */
export function retireLocaltunnelChoice(db: Database, nowSeconds: number): boolean {
  if (readSettings(db).webhookTunnel.trim() !== RETIRED_LOCALTUNNEL) return false;
  writeSettings(db, { webhookTunnel: 'off', webhookNotice: 'localtunnelRetired' }, nowSeconds);
  return true;
}

export function readDemoFlag(db: Database): boolean {
  return read(db, DEMO_KEY) === true;
}

export function writeDemoFlag(db: Database, demo: boolean, nowSeconds: number): void {
  write(db, DEMO_KEY, demo, nowSeconds);
}
