// The merchant connection as stored: base URL, user ID and the CA to trust (a sandbox) in the settings
// table, the API key in the secret store only. Nothing here ever writes the key to the database.
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { SecretStore } from '../secrets/secret-store';

export const API_KEY_SECRET = 'merchant.api-key';
const CONNECTION_SETTING = 'merchant.connection';

export interface ConnectionSettings {
  baseUrl: string;
  userId: string;
  /** PEM of a CA to trust for this merchant only (the sandbox); null for a public merchant. */
  caCertPem: string | null;
  /** The account's ref from GET /account at connect time (merchant-switch.ts); absent in old data. */
  accountRef?: number | null;
}

const storedSchema = z.object({ baseUrl: z.string(), userId: z.string(), caCertPem: z.string().nullable(), accountRef: z.number().int().nullable().optional() });

export const API_KEY_FORMAT = /^AK_[0-9a-f]{32}$/;

export class ConnectionInputError extends Error {
  override readonly name = 'ConnectionInputError';
}

/** Checks what the user typed before anything is sent: HTTPS, the interface's path, the key's form. */
export function checkConnectionInput(input: { baseUrl: string; userId: string; apiKey: string }): void {
  let url: URL;
  try {
    url = new URL(input.baseUrl);
  } catch {
    throw new ConnectionInputError('the merchant address is not a URL');
  }
  if (url.protocol !== 'https:') throw new ConnectionInputError('the merchant address must use https://');
  if (!/\/openapi\/v1\/?$/.test(url.pathname)) throw new ConnectionInputError('the merchant address must end with /openapi/v1');
  if (input.userId.trim() === '') throw new ConnectionInputError('the user ID is empty');
  // The key itself is never echoed, only what is wrong with it.
  if (!API_KEY_FORMAT.test(input.apiKey)) throw new ConnectionInputError('the API key must be AK_ followed by 32 lowercase hexadecimal characters');
}

export function readConnection(db: Database): ConnectionSettings | null {
  const row = db.prepare<[string], { value_json: string }>('SELECT value_json FROM settings WHERE key = ?').get(CONNECTION_SETTING);
  if (!row) return null;
  const parsed = storedSchema.safeParse(JSON.parse(row.value_json));
  return parsed.success ? parsed.data : null;
}

export function writeConnection(db: Database, settings: ConnectionSettings, now: number): void {
  db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at').run(
    CONNECTION_SETTING,
    JSON.stringify(settings),
    now,
  );
}

export async function readApiKey(secrets: SecretStore): Promise<string | null> {
  return secrets.get(API_KEY_SECRET);
}

export async function writeApiKey(secrets: SecretStore, apiKey: string): Promise<void> {
  await secrets.set(API_KEY_SECRET, apiKey);
}
