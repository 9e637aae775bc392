// The local HTTP listener behind the webhook receivers (interface v1 §4.3, 6.4; contract §15.3): one
// node:http server on 127.0.0.1 that routes POST /hooks/<token> to the receiver that mounted that
// token. A receiver without a listener of its own to share gets a private one (webhook-receiver.ts);
// with several merchant profiles one listener serves every profile's receiver, each on its own token,
// with its own database, inbox and stats. The listener knows nothing of events: it only routes.
//
// Why it looks like this:
// - The path is the only capability (the hooks are unsigned), so a path that no mounted token matches
//   is 404 for every method, and the token is compared in constant time against EVERY mounted one
//   (no early exit: the answer's timing says neither how much of a guess was right nor which profile
//   it came near). unmount() (a rotated token, a profile stopped) makes the path 404 at once.
// - Isolation between profiles: a request reaches the one handler whose token its path carries; a
//   profile's token on no other profile's path means anything, so one profile's webhook can never be
//   stored in another's database.
// - Slow or hostile clients cannot hold the listener: header and request timeouts (checked often), short
//   keep-alive and a cap on requests per socket. Silent sockets are dropped after the header timeout,
//   and a crowd of them cannot lock the sender out (300 idle connections once made a valid POST meet
//   ECONNRESET): past MAX_OPEN_SOCKETS a new connection evicts the oldest socket with no request in
//   progress, instead of being refused, so an event arriving in a flood still gets its OK within 3 s.
//   The body limit and the per-request body deadline are the receiver's (each profile's own).
// - stop() closes the server only once no receiver is mounted, so a profile that stops cannot take
//   the others' webhooks down; close() is the owner's way to end it whatever is mounted.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../logging/logger';
import { callbackPath, isCallbackToken, pathMatches } from './callback-token';
import { REJECTIONS, requestPathname } from './webhook-request-checks';

/** What a receiver mounts: it answers every request whose path carries its token. */
export type HookHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface WebhookListenerOptions {
  readonly logger: Logger;
  /** 0 (default) = a free port. */
  readonly port?: number;
  /** With port 0: the port to try first (the last one, so earlier orders' callback URLs still work); a free one if it is taken. */
  readonly preferredPort?: () => number | null;
  /** Real ms for the request line and headers. */
  readonly headersTimeoutMs?: number;
  /** Real ms for the whole request, body included (the server-wide net; receivers keep an exact one per request). */
  readonly requestTimeoutMs?: number;
  /** Called for each request no mounted token matches (answered 404). */
  readonly onNotFound?: () => void;
}

export interface ListenerStats {
  readonly listening: boolean;
  readonly port: number | null;
  /** Tokens mounted now. */
  readonly routes: number;
  /** Requests no mounted token matched. */
  readonly notFound: number;
}

export interface WebhookListener {
  /** Listens on 127.0.0.1 (once; later calls get the same port); resolves with the port. */
  start(): Promise<number>;
  /** Closes the server, but only while no token is mounted: one profile stopping leaves the others up. */
  stop(): Promise<void>;
  /** Closes the server whatever is mounted (the owner's end); mounted tokens stay and work after start(). */
  close(): Promise<void>;
  /** The port while listening, else null. */
  port(): number | null;
  /** Routes POST /hooks/<token> to `handler` from now on; a token mounted already is refused. */
  mount(token: string, handler: HookHandler): void;
  /** The token's path is 404 from now on. */
  unmount(token: string): void;
  stats(): ListenerStats;
}

const CONNECTIONS_CHECK_MS = 250;
const KEEP_ALIVE_MS = 2000;
const MAX_REQUESTS_PER_SOCKET = 100;
/** Sockets kept open; beyond this the oldest one without a request in progress is closed. */
const MAX_OPEN_SOCKETS = 256;
/** Node's own refusal, only for floods faster than eviction (file descriptors stay bounded). */
const MAX_CONNECTIONS = 4096;

/** Answers text/plain, uncached; `close` ends the connection after the answer (a body left unread). */
export function answer(req: IncomingMessage, res: ServerResponse, status: number, text: string, close: boolean, then?: () => void): void {
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
 * The http server with the listener's limits. `sockets` holds the open sockets, oldest first, and
 * whether a request is in progress on each; past MAX_OPEN_SOCKETS the oldest idle one is evicted.
 */
function createHookServer(
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
  // deadlines (requestTimeout, the receiver's body timer), so its socket is left alone here.
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

/** Closes the server: idle sockets at once, in-flight requests after a last half second. */
async function closeServer(running: Server, sockets: Map<Socket, { busy: boolean }>): Promise<void> {
  const closed = new Promise<void>((resolve) => running.close(() => resolve()));
  running.closeIdleConnections();
  for (const socket of sockets.keys()) socket.destroySoon();
  // In-flight requests have had their chance (requestTimeout); anything left is cut.
  const timer = setTimeout(() => running.closeAllConnections(), 500);
  await closed;
  clearTimeout(timer);
}

export function createWebhookListener(options: WebhookListenerOptions): WebhookListener {
  const { logger } = options;
  const timeouts = { headersTimeoutMs: options.headersTimeoutMs ?? 2000, requestTimeoutMs: options.requestTimeoutMs ?? 3000 };
  /** Mounted tokens, each with its path (compared) and its handler. */
  const routes = new Map<string, { readonly path: string; readonly handler: HookHandler }>();
  /** Open sockets, oldest first (Map keeps insertion order), and whether a request is in progress on each. */
  const sockets = new Map<Socket, { busy: boolean }>();
  let server: Server | null = null;
  let opening: Promise<number> | null = null;
  let closing: Promise<void> | null = null;
  let notFound = 0;

  /** The handler whose path the request's path is, compared with every mounted one in constant time each. */
  const routeFor = (url: string | undefined): HookHandler | null => {
    const requested = requestPathname(url);
    let found: HookHandler | null = null;
    for (const route of routes.values()) {
      if (pathMatches(requested, route.path)) found = route.handler;
    }
    return found;
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    const state = sockets.get(req.socket);
    if (state) {
      state.busy = true;
      res.once('close', () => {
        state.busy = false;
      });
    }
    const handler = routeFor(req.url);
    if (handler !== null) {
      handler(req, res);
      return;
    }
    notFound++;
    options.onNotFound?.();
    // Not reading a body we refuse: the connection closes after the answer.
    answer(req, res, REJECTIONS.notFound.status, REJECTIONS.notFound.message, req.method !== 'GET' && req.method !== 'HEAD');
  };

  const open = async (): Promise<number> => {
    const fixed = options.port ?? 0;
    const preferred = fixed === 0 ? (options.preferredPort?.() ?? null) : null;
    let created: Server;
    try {
      created = await listenOn(createHookServer(dispatch, sockets, timeouts), preferred ?? fixed);
    } catch (error) {
      // The last port is taken now (by something else): any free one; earlier orders are then polled.
      if (preferred === null) throw error;
      logger.info('webhook receiver: the last port is taken, listening on a free one', { port: preferred });
      created = await listenOn(createHookServer(dispatch, sockets, timeouts), 0);
    }
    server = created;
    const { port } = created.address() as AddressInfo;
    logger.info('webhook receiver listening', { host: '127.0.0.1', port });
    return port;
  };

  const portNow = (): number | null => (server === null ? null : (server.address() as AddressInfo).port);

  const shut = async (): Promise<void> => {
    if (closing !== null) return closing;
    const running = server;
    if (running === null) return;
    server = null;
    closing = closeServer(running, sockets).finally(() => {
      closing = null;
    });
    return closing;
  };

  return {
    async start() {
      while (closing !== null) await closing;
      const listening = portNow();
      if (listening !== null) return listening;
      opening ??= open().finally(() => {
        opening = null;
      });
      return opening;
    },
    async stop() {
      if (opening !== null) await opening.catch(() => undefined);
      if (routes.size > 0) return;
      await shut();
    },
    async close() {
      if (opening !== null) await opening.catch(() => undefined);
      await shut();
    },
    port: portNow,
    mount(token, handler) {
      if (!isCallbackToken(token)) throw new RangeError('callback token must be 32 bytes in base64url');
      // Two profiles with one token (a data folder copied) would share a path: the second is refused
      // rather than given the first one's webhooks; rotating its token ends it.
      if (routes.has(token)) throw new Error('this callback token is mounted already (another profile uses it: rotate the token of this one)');
      routes.set(token, { path: callbackPath(token), handler });
    },
    unmount(token) {
      routes.delete(token);
    },
    stats: () => ({ listening: server !== null, port: portNow(), routes: routes.size, notFound }),
  };
}
