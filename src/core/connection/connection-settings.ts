// The merchant connection as stored: base URL, user ID and the CA to trust (a sandbox) in the settings
// table, the API key in the secret store only. Nothing here ever writes the key to the database.
import type { Database } from 'better-sqlite3';
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { addressProblem, API_KEY_FORMAT, caCertProblem, MAX_CA_CERT_PEM_CHARS, type ConnectionInputProblem } from '../../shared/connection-input';
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

export { API_KEY_FORMAT };

export class ConnectionInputError extends Error {
  override readonly name = 'ConnectionInputError';
  constructor(
    message: string,
    /** Which check failed (shared/connection-input.ts): the form words it; null for other callers' refusals. */
    readonly problem: ConnectionInputProblem | null = null,
  ) {
    super(message);
  }
}

const PROBLEM_MESSAGES: Record<ConnectionInputProblem, string> = {
  addressNotUrl: 'the merchant address is not a URL',
  addressInsecure: 'the merchant address must use https:// (the key is never sent over plain http)',
  addressPath: 'the merchant address must end with /openapi/v1',
  userIdEmpty: 'the user ID is empty',
  // The key itself is never echoed, only what is wrong with it.
  apiKeyFormat: 'the API key must be AK_ followed by 32 lowercase hexadecimal characters',
  caCertTooLarge: `the CA certificate is larger than ${MAX_CA_CERT_PEM_CHARS} characters`,
  caCertNotPem: 'the CA certificate is not a PEM certificate (-----BEGIN CERTIFICATE----- blocks only)',
  caCertUnreadable: 'the CA certificate does not parse as an X.509 certificate',
};

function refuse(problem: ConnectionInputProblem): never {
  throw new ConnectionInputError(PROBLEM_MESSAGES[problem], problem);
}

/** The CA as core trusts it: the shared shape check, then every block parsed by node:crypto. */
export function checkCaCertPem(pem: string): void {
  const shape = caCertProblem(pem);
  if (shape !== null) refuse(shape);
  for (const block of pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []) {
    try {
      new X509Certificate(block);
    } catch {
      refuse('caCertUnreadable');
    }
  }
}

/** What a stored CA is, for Settings: the first certificate's subject, fingerprint and end of validity. */
export function describeCaCert(pem: string): { subject: string; fingerprint256: string; validTo: number } | null {
  try {
    const cert = new X509Certificate(pem);
    // Unix seconds: the renderer dates it in the buyer's language.
    return { subject: cert.subject.replace(/\n/g, ', '), fingerprint256: cert.fingerprint256, validTo: Math.floor(Date.parse(cert.validTo) / 1000) };
  } catch {
    return null;
  }
}

/** Checks what the user typed before anything is sent: HTTPS, the interface's path, the key's form, the CA. */
export function checkConnectionInput(input: { baseUrl: string; userId: string; apiKey: string; caCertPem?: string | null }): void {
  const address = addressProblem(input.baseUrl);
  if (address !== null) refuse(address);
  if (input.userId.trim() === '') refuse('userIdEmpty');
  if (!API_KEY_FORMAT.test(input.apiKey)) refuse('apiKeyFormat');
  if (input.caCertPem !== undefined && input.caCertPem !== null) checkCaCertPem(input.caCertPem);
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
