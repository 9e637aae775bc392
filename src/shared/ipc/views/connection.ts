// The connection and the merchant account as the renderer sees them: whether a key is stored, never the key.
import { z } from 'zod';
import { TRANSPORT_REASONS } from '../../transport-reasons';
import { fen, seconds } from './view-fields';

export const connectionStatusSchema = z.object({
  connected: z.boolean(),
  baseUrl: z.string().nullable(),
  userId: z.string().nullable(),
  /** Whether a key is stored, never the key. */
  keyStored: z.boolean(),
  /** Where secrets are kept: 'safe-storage', 'memory' (weaker backend refused), 'passphrase-file'. */
  secretStore: z.string(),
  /** Present and true when this host can move memory-only secrets into a passphrase file (the desktop app). */
  passphraseFileOffered: z.boolean().optional(),
  /** The built-in demo merchant (the sandbox) is the one connected. */
  demo: z.boolean(),
  /** The CA certificate trusted for this merchant only (connect form's advanced section), or null for the system's. */
  caCert: z.object({ subject: z.string(), fingerprint256: z.string(), validTo: seconds }).nullable().optional(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

export const accountViewSchema = z.object({
  accountRef: z.number().int(),
  userId: z.string(),
  nickname: z.string(),
  accessState: z.string(),
  balanceFen: fen,
  currency: z.string(),
  /** Unix seconds (core clock) when the merchant's GET /account answered this: the reading's age on screen. */
  readAt: seconds,
});
export type AccountView = z.infer<typeof accountViewSchema>;

/**
 * The one connection state machine's states (core/connection/connection-state.ts), shared by the
 * header, the banners and the background workers:
 * - notConnected: no merchant set up, or its key cleared;
 * - online: the merchant's last answer was a success (or a business refusal of one request);
 * - degraded: it answers 5xx or 429, does not answer in time, or answers slowly (slowMs): it is there but struggling;
 * - keyRefused: 401: a new key is needed; suspended: 403005 or accessState suspended;
 * - ipDenied: 403002, this computer's address is not on the allow-list;
 * - certificate: the TLS certificate is untrusted, for another host, or expired;
 * - offline: no route to the merchant (no network, DNS, refused).
 */
export const CONNECTION_STATES = ['notConnected', 'online', 'degraded', 'keyRefused', 'suspended', 'ipDenied', 'certificate', 'offline'] as const;
export type ConnectionStateName = (typeof CONNECTION_STATES)[number];

export const connectionStateSchema = z.object({
  state: z.enum(CONNECTION_STATES),
  /** Unix seconds (client clock) when this state began; null before anything was asked. */
  since: seconds.nullable(),
  /** Unix seconds of the merchant's last successful answer, kept through every failure. */
  lastSuccessAt: seconds.nullable(),
  /** The merchant's business code of the answer that set this state (429001, 503001, 401001, …). */
  merchantCode: z.number().int().nullable(),
  /** The requestId of that answer, for support. */
  requestId: z.string().nullable(),
  /** The HTTP status of that answer (503, 429, 401, …), when there was one. */
  httpStatus: z.number().int().nullable(),
  /** offline / certificate / degraded by timeout: which transport failure it was. */
  transportReason: z.enum(TRANSPORT_REASONS).nullable(),
  /** Client-clock Unix ms from which the merchant said requests may be sent again (Retry-After), or null. */
  retryAtMs: z.number().int().nullable(),
  /** degraded by slowness alone: real ms the slow answer took (or a request has waited so far); null otherwise. */
  slowMs: z.number().int().nonnegative().nullable(),
});
export type ConnectionStateView = z.infer<typeof connectionStateSchema>;
