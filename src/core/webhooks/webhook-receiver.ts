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
// - Slow or hostile clients cannot hold the receiver: header and request timeouts (checked often),
//   a per-request body deadline, a body limit that stops reading, short keep-alive and a cap on
//   requests per socket. Silent sockets are dropped after the header timeout, and a crowd of them
//   cannot lock the sender out (300 idle connections once made a valid POST meet ECONNRESET):
//   past MAX_OPEN_SOCKETS a new connection evicts the oldest socket with no request in progress,
//   instead of being refused, so an event arriving in a flood still gets its OK within 3 s.
// - Card secrets of order.credentials.ready are registered with the logger on arrival and sealed
//   before storage; the body is never logged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Database } from 'better-sqlite3';
import type { SecretAwareLogger } from '../logging/logger';
import type { Clock } from '../platform/clock';
import type { CardCipher } from '../vault/card-cipher';
import { callbackPath, isCallbackToken, newCallbackToken } from './callback-token';
import { checkWebhookBody } from './webhook-body-check';
import { createGroupCommit } from './inbox-group-commit';
import { createWebhookInbox, type WebhookInbox } from './webhook-inbox';
import { checkRequestHead, REJECTIONS, type RejectReason, type Rejection } from './webhook-request-checks';

const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export interface WebhookReceiverOptions {
  readonly db: Database;
  readonly cipher: CardCipher;
  readonly logger: SecretAwareLogger;
  readonly clock: Clock;
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

const CONNECTIONS_CHECK_MS = 250;
const KEEP_ALIVE_MS = 2000;
const MAX_REQUESTS_PER_SOCKET = 100;
/** Sockets kept open; beyond this the oldest one without a request in progress is closed. */
const MAX_OPEN_SOCKETS = 256;
/** Node's own refusal, only for floods faster than eviction (file descriptors stay bounded). */
const MAX_CONNECTIONS = 4096;

/** Answers text/plain, uncached; `close` ends the connection after the answer (a body left unread). */
function answer(req: IncomingMessage, res: ServerResponse, status: number, text: string, close: boolean, then?: () => void): void {
  if (res.headersSent) return;
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
  if (status === 405) headers.allow = 'POST';
  if (close) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(text, () => {
    if (close) req.socket.destroySoon();
    then?.();
  });
}

/** Closes the oldest socket that has no request in progress (a silent or idle keep-alive one). */
function evictIdle(sockets: Map<Socket, { busy: boolean }>, except: Socket): void {
  for (const [socket, state] of sockets) {
    if (socket === except || state.busy) continue;
    sockets.delete(socket);
    socket.destroy();
    return;
  }
}

/**
 * The http server with the receiver's limits. `sockets` holds the open sockets, oldest first, and
 * whether a request is in progress on each; past MAX_OPEN_SOCKETS the oldest idle one is evicted.
 */
function createReceiverServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  sockets: Map<Socket, { busy: boolean }>,
  timeouts: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number },
): Server {
  const created = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_MS,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
      maxHeaderSize: 16 * 1024,
    },
    handle,
  );
  created.maxRequestsPerSocket = MAX_REQUESTS_PER_SOCKET;
  created.maxConnections = MAX_CONNECTIONS;
  // A socket silent for the header timeout with no request in progress is closed (node's own
  // headersTimeout only counts once a request has begun). A request in progress has its own
  // deadlines (requestTimeout, the body timer), so its socket is left alone here.
  created.on('timeout', (socket: Socket) => {
    if (sockets.get(socket)?.busy !== true) socket.destroy();
  });
  created.on('connection', (socket: Socket) => {
    sockets.set(socket, { busy: false });
    socket.setTimeout(timeouts.headersTimeoutMs);
    socket.once('close', () => sockets.delete(socket));
    if (sockets.size > MAX_OPEN_SOCKETS) evictIdle(sockets, socket);
  });
  created.on('clientError', (_error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    socket.destroySoon();
  });
  return created;
}

function listenOn(server: Server, port: number): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { db, cipher, logger, clock } = options;
  const inbox: WebhookInbox = createWebhookInbox(db, cipher);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const headersTimeoutMs = options.headersTimeoutMs ?? 2000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 3000;
  if (options.token !== undefined && !isCallbackToken(options.token)) throw new RangeError('callback token must be 32 bytes in base64url');
  let token = options.token ?? newCallbackToken();
  logger.registerSecret(token);
  let server: Server | null = null;
  /** Open sockets, oldest first (Map keeps insertion order), and whether a request is in progress on each. */
  const sockets = new Map<Socket, { busy: boolean }>();

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

  const enqueue = createGroupCommit(inbox);

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const state = sockets.get(req.socket);
    if (state) {
      state.busy = true;
      res.once('close', () => {
        state.busy = false;
      });
    }
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
      if (server !== null) throw new Error('webhook receiver already started');
      const fixed = options.port ?? 0;
      const preferred = fixed === 0 ? (options.preferredPort?.() ?? null) : null;
      let created: Server;
      try {
        created = await listenOn(createReceiverServer(handle, sockets, { headersTimeoutMs, requestTimeoutMs }), preferred ?? fixed);
      } catch (error) {
        // The last port is taken now (by something else): any free one; earlier orders are then polled.
        if (preferred === null) throw error;
        logger.info('webhook receiver: the last port is taken, listening on a free one', { port: preferred });
        created = await listenOn(createReceiverServer(handle, sockets, { headersTimeoutMs, requestTimeoutMs }), 0);
      }
      server = created;
      const { port } = created.address() as AddressInfo;
      logger.info('webhook receiver listening', { host: '127.0.0.1', port });
      return { port, path: callbackPath(token) };
    },
    async stop() {
      const running = server;
      if (running === null) return;
      server = null;
      const closed = new Promise<void>((resolve) => running.close(() => resolve()));
      running.closeIdleConnections();
      for (const socket of sockets.keys()) socket.destroySoon();
      // In-flight requests have had their chance (requestTimeout); anything left is cut.
      const timer = setTimeout(() => running.closeAllConnections(), 500);
      await closed;
      clearTimeout(timer);
    },
    rotateToken() {
      token = newCallbackToken();
      // The old token stays registered: it may still be in older log context and must never show.
      logger.registerSecret(token);
      return callbackPath(token);
    },
    path: () => callbackPath(token),
    token: () => token,
    stats: () => ({
      listening: server !== null,
      ...counts,
      rejected: { ...rejected },
      lastEventAt,
    }),
  };
}
