// The local webhook receiver (interface v1 §4.3, 6.4): node:http on 127.0.0.1 only, POST only on
// /hooks/<token>. Each request is checked (path, method, content type, size, JSON, the event kind's
// required fields), stored durably in the inbox keyed by eventId and answered `OK` text/plain; the
// work happens afterwards in the inbox processor (onStored pokes it). Nothing here trusts the body
// beyond storing it: the processor re-checks with the merchant before anything is recorded.
//
// Why it looks like this:
// - The INSERT commits (WAL, synchronous=FULL) before the answer is written, so OK means "on disk".
//   Bodies completed in the same event-loop turn share one transaction (group commit). A storage
//   failure answers 503: the sender retries at 15 s and 30 s instead of losing the event.
// - The path is the only capability (the hooks are unsigned), so a wrong path is 404 for every
//   method, compared in constant time; rotateToken() makes the old path 404 at once.
// - Slow or hostile clients cannot hold the receiver: the listener's limits (webhook-listener.ts:
//   header and request timeouts, socket eviction, keep-alive caps), and here a per-request body
//   deadline and a body limit that stops reading.
// - The http server is a WebhookListener's: one of its own by default, or one shared by every merchant
//   profile (`listener`, contract §15.3). Either way this receiver mounts its own token on it and keeps
//   its own database, inbox, group commit and stats, so an event posted to one profile's path is
//   stored in that profile's inbox only.
// - Card secrets of order.credentials.ready are registered with the logger on arrival and sealed
//   before storage; the body is never logged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from 'better-sqlite3';
import type { SecretAwareLogger } from '../logging/logger';
import type { Clock } from '../platform/clock';
import type { CardCipher } from '../vault/card-cipher';
import { callbackPath, isCallbackToken, newCallbackToken } from './callback-token';
import { checkWebhookBody } from './webhook-body-check';
import { createGroupCommit } from './inbox-group-commit';
import { createWebhookInbox, type WebhookInbox } from './webhook-inbox';
import { answer, createWebhookListener, type WebhookListener } from './webhook-listener';
import { checkRequestHead, REJECTIONS, type RejectReason, type Rejection } from './webhook-request-checks';

const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export interface WebhookReceiverOptions {
  readonly db: Database;
  readonly cipher: CardCipher;
  readonly logger: SecretAwareLogger;
  readonly clock: Clock;
  /**
   * A listener shared with other receivers (one per merchant profile): this receiver mounts its
   * token on it instead of listening itself. port, preferredPort and the header/request timeouts are
   * then the listener's; the body limit and the per-request body deadline stay this receiver's.
   */
  readonly listener?: WebhookListener;
  /** 0 (default) = a free port. */
  readonly port?: number;
  /** With port 0: the port to try first (the last one, so earlier orders' callback URLs still work); a free one if it is taken. */
  readonly preferredPort?: () => number | null;
  /** The token of a callback URL registered earlier (orders keep theirs); a new one by default. */
  readonly token?: string;
  readonly maxBodyBytes?: number;
  /** Real ms for the request line and headers. */
  readonly headersTimeoutMs?: number;
  /** Real ms for the whole request, body included. */
  readonly requestTimeoutMs?: number;
  /** Called once an event is committed and its OK written (not for duplicates). */
  readonly onStored?: (eventId: string) => void;
}

export interface ReceiverStats {
  readonly listening: boolean;
  /** New events stored. */
  readonly received: number;
  readonly duplicates: number;
  /** Of `received`: event types this app does not know (stored, acknowledged, not acted on). */
  readonly unknownTypes: number;
  readonly rejected: Readonly<Record<RejectReason, number>>;
  /** Unix ms (core clock) of the last stored or duplicate event, null before the first. */
  readonly lastEventAt: number | null;
}

export interface WebhookReceiver {
  /** Listens on 127.0.0.1; resolves with the port and the current callback path. */
  start(): Promise<{ port: number; path: string }>;
  stop(): Promise<void>;
  /** A new token: the returned path works from now on, the previous one is 404 at once. */
  rotateToken(): string;
  path(): string;
  /** The current token, for the caller to persist with the callback URL it registers. */
  token(): string;
  stats(): ReceiverStats;
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { db, cipher, logger, clock } = options;
  const inbox: WebhookInbox = createWebhookInbox(db, cipher);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const requestTimeoutMs = options.requestTimeoutMs ?? 3000;
  if (options.token !== undefined && !isCallbackToken(options.token)) throw new RangeError('callback token must be 32 bytes in base64url');
  let token = options.token ?? newCallbackToken();
  logger.registerSecret(token);
  /** Whether this receiver's token is mounted on the listener (between start and stop). */
  let mounted = false;

  const counts = { received: 0, duplicates: 0, unknownTypes: 0 };
  const rejected: Record<RejectReason, number> = {
    notFound: 0,
    methodNotAllowed: 0,
    unsupportedMediaType: 0,
    tooLarge: 0,
    badJson: 0,
    invalidEvent: 0,
    timeout: 0,
    storageFailed: 0,
  };
  let lastEventAt: number | null = null;
  // A listener of its own unless one is shared: a path it does not know is then this receiver's 404.
  const listener: WebhookListener =
    options.listener ??
    createWebhookListener({
      logger,
      port: options.port ?? 0,
      ...(options.preferredPort ? { preferredPort: options.preferredPort } : {}),
      headersTimeoutMs: options.headersTimeoutMs ?? 2000,
      requestTimeoutMs,
      onNotFound: () => rejected.notFound++,
    });

  const enqueue = createGroupCommit(inbox);

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const early = checkRequestHead({ method: req.method, url: req.url, headers: req.headers }, callbackPath(token), maxBodyBytes);
    if (early !== null) {
      rejected[early.reason]++;
      // Not reading a body we refuse: the connection closes after the answer.
      answer(req, res, early.status, early.message, req.method !== 'GET' && req.method !== 'HEAD');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const reject = (rejection: Rejection): void => {
      if (done) return;
      done = true;
      clearTimeout(bodyTimer);
      rejected[rejection.reason]++;
      req.pause();
      answer(req, res, rejection.status, rejection.message, true);
    };
    // A client that sends headers and then trickles the body is cut off (requestTimeout is the
    // server-wide net; this one is per request and exact).
    const bodyTimer = setTimeout(() => reject(REJECTIONS.timeout), requestTimeoutMs);
    bodyTimer.unref();
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBodyBytes) {
        chunks.length = 0;
        reject(REJECTIONS.tooLarge);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      done = true;
      clearTimeout(bodyTimer);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      clearTimeout(bodyTimer);
      const checked = checkWebhookBody(Buffer.concat(chunks, size), clock.nowMs(), logger);
      if (checked.kind === 'rejected') {
        rejected[checked.rejection.reason]++;
        answer(req, res, checked.rejection.status, checked.rejection.message, false);
        return;
      }
      const { eventId } = checked.item.input;
      enqueue(checked.item, (result) => {
        if (result instanceof Error) {
          logger.error('webhook could not be stored', { eventId, error: logger.redact(result.message) });
          rejected.storageFailed++;
          answer(req, res, REJECTIONS.storageFailed.status, REJECTIONS.storageFailed.message, false);
          return;
        }
        lastEventAt = clock.nowMs();
        if (result === 'duplicate') {
          counts.duplicates++;
          answer(req, res, 200, 'OK', false);
          return;
        }
        counts.received++;
        if (checked.unknownType) counts.unknownTypes++;
        answer(req, res, 200, 'OK', false, () => options.onStored?.(eventId));
      });
    });
  };

  return {
    async start() {
      if (mounted) throw new Error('webhook receiver already started');
      // Mounted before the listener starts, so that another receiver stopping meanwhile cannot close it.
      listener.mount(token, handle);
      mounted = true;
      try {
        const port = await listener.start();
        return { port, path: callbackPath(token) };
      } catch (error) {
        listener.unmount(token);
        mounted = false;
        throw error;
      }
    },
    async stop() {
      if (!mounted) return;
      mounted = false;
      listener.unmount(token);
      // Closes the server only if no other receiver is mounted (always, for a listener of its own).
      await listener.stop();
    },
    rotateToken() {
      const previous = token;
      token = newCallbackToken();
      // The old token stays registered: it may still be in older log context and must never show.
      logger.registerSecret(token);
      if (mounted) {
        listener.unmount(previous);
        listener.mount(token, handle);
      }
      return callbackPath(token);
    },
    path: () => callbackPath(token),
    token: () => token,
    stats: () => ({
      listening: mounted && listener.port() !== null,
      ...counts,
      rejected: { ...rejected },
      lastEventAt,
    }),
  };
}
