// localtunnel through the `localtunnel` npm client. Its protocol: GET {host}/?new (or /{subdomain})
// answers {id, port, max_conn_count, url}; the client then keeps max_conn_count TCP connections
// open to host:port and pipes each request arriving on them to the local port.
//
// Two things of the client are deliberately not used:
// - its own tunnel request, which retries every second forever when the server cannot be reached
//   (offline, server down) and cannot be cancelled: it is replaced by one bounded, abortable fetch
//   whose answer is handed to the client's own `_getInfo`, so the TCP side stays the package's;
// - its `local_host` option, whose Host-header rewriting decodes the first chunks as text and
//   would corrupt a JSON body whose UTF-8 characters straddle a chunk boundary. It then connects
//   to `localhost`, which Node's address-family fallback resolves to the receiver's 127.0.0.1.
// When the server drops us (the client reports an error), the tunnel is requested anew with
// backoff; the server may hand out a new URL, reported through onChange.
import type { Logger } from '../../logging/logger';
import type { Clock } from '../../platform/clock';
import type { BackoffPolicy } from './restart-backoff';
import { DEFAULT_BACKOFF, backoffDelayMs } from './restart-backoff';
import type { Tunnel, TunnelStatus } from './tunnel';
import { TunnelError } from './tunnel';
import { TunnelState, checkLocalPort, errorMessage } from './tunnel-state';

export const DEFAULT_LOCALTUNNEL_HOST = 'https://localtunnel.me';

/** What the server answers to the tunnel request (fields the client reads). */
export interface LocaltunnelInfoBody {
  id: string;
  port: number;
  url: string;
  max_conn_count?: number;
  ip?: string;
  cached_url?: string;
}

/** The part of the package's `Tunnel` class (lib/Tunnel.js) used here. */
export interface LocaltunnelClient {
  _init(callback: (error: Error | null, info?: unknown) => void): void;
  _getInfo(body: LocaltunnelInfoBody): unknown;
  open(callback: (error?: Error | null) => void): void;
  close(): void;
  on(event: 'url', listener: (url: string) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'request', listener: (request: { method: string; path: string }) => void): unknown;
}

export type LocaltunnelClientClass = new (options: { port: number; host: string; subdomain?: string }) => LocaltunnelClient;

export type LocaltunnelLoader = () => Promise<LocaltunnelClientClass>;

// Held in a variable: the client class is a file of the package rather than its entry point.
const CLIENT_MODULE = 'localtunnel/lib/Tunnel.js';

export const loadLocaltunnelClient: LocaltunnelLoader = async () => {
  const loaded: unknown = await import(CLIENT_MODULE);
  const candidate: unknown = typeof loaded === 'object' && loaded !== null && 'default' in loaded ? loaded.default : loaded;
  if (typeof candidate !== 'function') throw new TunnelError('the localtunnel package does not have the expected client');
  return candidate as LocaltunnelClientClass;
};

export interface LocaltunnelTimings {
  /** For the tunnel request and the first TCP connection together. Default 30 s. */
  readonly startTimeoutMs: number;
  readonly backoff: BackoffPolicy;
}

export interface LocaltunnelTunnelDeps {
  logger: Logger;
  clock: Clock;
  host?: string;
  subdomain?: string;
  loadClient?: LocaltunnelLoader;
  timings?: Partial<LocaltunnelTimings>;
}

// A server asking for hundreds of connections would get them from the client; a handful is plenty.
const MAX_CONNECTIONS = 10;

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new TunnelError('stopped');
}

function checkServerHost(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TunnelError('the localtunnel server is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TunnelError('the localtunnel server must be an http(s) URL');
  return url.origin;
}

function readInfo(body: unknown): LocaltunnelInfoBody {
  if (typeof body !== 'object' || body === null) throw new TunnelError('the localtunnel server answered something other than a JSON object');
  const record = body as Record<string, unknown>;
  const { id, port, url, max_conn_count: maxConn, ip, cached_url: cachedUrl } = record;
  if (typeof id !== 'string' || typeof url !== 'string' || typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) {
    const message = typeof record.message === 'string' ? record.message : 'an answer without id, port and url';
    throw new TunnelError(`the localtunnel server refused the tunnel: ${message}`);
  }
  let publicUrl: URL;
  try {
    publicUrl = new URL(url);
  } catch {
    throw new TunnelError('the localtunnel server gave a tunnel URL that is not a URL');
  }
  if (publicUrl.protocol !== 'https:' && publicUrl.protocol !== 'http:') throw new TunnelError('the localtunnel server gave a tunnel URL that is not http(s)');
  const connections = typeof maxConn === 'number' && Number.isInteger(maxConn) && maxConn > 0 ? Math.min(maxConn, MAX_CONNECTIONS) : 1;
  return {
    id,
    port,
    url: publicUrl.origin,
    max_conn_count: connections,
    ...(typeof ip === 'string' ? { ip } : {}),
    ...(typeof cachedUrl === 'string' ? { cached_url: cachedUrl } : {}),
  };
}

export function createLocaltunnelTunnel(deps: LocaltunnelTunnelDeps): Tunnel {
  const state = new TunnelState('localtunnel', deps.logger);
  const timings: LocaltunnelTimings = { startTimeoutMs: 30_000, backoff: DEFAULT_BACKOFF, ...deps.timings };
  const host = checkServerHost(deps.host ?? DEFAULT_LOCALTUNNEL_HOST);
  const loadClient = deps.loadClient ?? loadLocaltunnelClient;
  let lifetime: AbortController | null = null;
  let client: LocaltunnelClient | null = null;
  let supervising: Promise<void> | null = null;

  /** One tunnel: request it, open the client, wait for its first connection. Resolves with the URL and a "lost" promise. */
  const open = async (Client: LocaltunnelClientClass, localPort: number, signal: AbortSignal): Promise<{ url: string; lost: Promise<string> }> => {
    // Ends this attempt on stop() or when it takes too long; the clock keeps tests and scaled runs in step.
    const attempt = new AbortController();
    const onStop = (): void => attempt.abort(new TunnelError('stopped'));
    if (signal.aborted) onStop();
    signal.addEventListener('abort', onStop, { once: true });
    const deadline = new AbortController();
    deps.clock.sleep(timings.startTimeoutMs, deadline.signal).then(
      () => attempt.abort(new TunnelError(`localtunnel did not connect within ${timings.startTimeoutMs} ms`)),
      () => undefined,
    );

    const requestUrl = `${host}/${deps.subdomain === undefined ? '?new' : encodeURIComponent(deps.subdomain)}`;
    const instance = new Client({ port: localPort, host, ...(deps.subdomain === undefined ? {} : { subdomain: deps.subdomain }) });
    const received: { info: LocaltunnelInfoBody | null } = { info: null };
    instance._init = (callback) => {
      fetch(requestUrl, { signal: attempt.signal, headers: { accept: 'application/json' } })
        .then(async (response) => {
          const body: unknown = await response.json().catch(() => null);
          if (!response.ok) {
            const message = typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
            throw new TunnelError(`the localtunnel server refused the tunnel: ${message}`);
          }
          received.info = readInfo(body);
          callback(null, instance._getInfo(received.info));
        })
        .catch((error: unknown) => callback(attempt.signal.aborted ? abortReason(attempt.signal) : error instanceof Error ? error : new Error(String(error))));
    };
    let resolveLost: (reason: string) => void = () => undefined;
    const lost = new Promise<string>((resolve) => {
      resolveLost = resolve;
    });
    const connected = new Promise<void>((resolve, reject) => {
      // The client emits 'error' when its connections to the server are refused; unhandled, an
      // EventEmitter 'error' would throw out of a socket callback and end the process.
      instance.on('error', (error) => {
        reject(error);
        resolveLost(`localtunnel connection lost: ${error.message}`);
      });
      instance.on('url', () => resolve());
      attempt.signal.addEventListener('abort', () => reject(abortReason(attempt.signal)), { once: true });
    });
    // Awaited only once the request succeeded; an earlier failure must not leave it unhandled.
    connected.catch(() => undefined);
    instance.on('request', (request) => deps.logger.debug('localtunnel request', { kind: 'localtunnel', method: request.method }));
    client = instance;
    try {
      await new Promise<void>((resolve, reject) => instance.open((error) => (error ? reject(error) : resolve())));
      await connected;
      if (received.info === null) throw new TunnelError('localtunnel opened without tunnel information');
      return { url: received.info.url, lost };
    } catch (error) {
      instance.close();
      if (client === instance) client = null;
      throw error instanceof TunnelError ? error : new TunnelError(`localtunnel failed: ${errorMessage(error)}`);
    } finally {
      deadline.abort();
      signal.removeEventListener('abort', onStop);
    }
  };

  const supervise = async (Client: LocaltunnelClientClass, localPort: number, firstLost: Promise<string>, signal: AbortSignal): Promise<void> => {
    let lost = firstLost;
    let upSince = deps.clock.nowMs();
    let attempt = 0;
    while (!signal.aborted) {
      const stopped = new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
      const reason = await Promise.race([lost, stopped]);
      if (reason === null || signal.aborted) return;
      client?.close();
      client = null;
      if (deps.clock.nowMs() - upSince >= timings.backoff.stableMs) attempt = 0;
      deps.logger.warn('localtunnel down; requesting a new tunnel', { kind: 'localtunnel', reason });
      state.update({ up: false, publicUrl: null, lastError: reason });
      for (;;) {
        try {
          await deps.clock.sleep(backoffDelayMs(timings.backoff, attempt), signal);
        } catch {
          return;
        }
        attempt++;
        try {
          const next = await open(Client, localPort, signal);
          lost = next.lost;
          upSince = deps.clock.nowMs();
          const restarts = state.snapshot().restarts + 1;
          state.update({ up: true, publicUrl: next.url, lastError: null, restarts });
          deps.logger.info('localtunnel up again', { kind: 'localtunnel', publicUrl: next.url, restarts });
          break;
        } catch (error) {
          if (signal.aborted) return;
          state.update({ lastError: errorMessage(error) });
          deps.logger.warn('localtunnel restart failed', { kind: 'localtunnel', error: errorMessage(error) });
        }
      }
    }
  };

  return {
    kind: 'localtunnel',
    async start(localPort: number): Promise<string> {
      checkLocalPort(localPort);
      if (lifetime !== null) throw new TunnelError('the localtunnel tunnel is already started');
      const controller = new AbortController();
      lifetime = controller;
      try {
        let Client: LocaltunnelClientClass;
        try {
          Client = await loadClient();
        } catch (error) {
          throw new TunnelError(`localtunnel support is not available: ${errorMessage(error)}`);
        }
        const first = await open(Client, localPort, controller.signal);
        state.update({ up: true, publicUrl: first.url, lastError: null });
        deps.logger.info('localtunnel up', { kind: 'localtunnel', publicUrl: first.url });
        supervising = supervise(Client, localPort, first.lost, controller.signal);
        return first.url;
      } catch (error) {
        if (lifetime === controller) {
          lifetime = null;
          state.update({ up: false, publicUrl: null, lastError: errorMessage(error) });
        }
        throw error instanceof TunnelError ? error : new TunnelError(`localtunnel failed to start: ${errorMessage(error)}`);
      }
    },
    async stop(): Promise<void> {
      const controller = lifetime;
      lifetime = null;
      controller?.abort();
      client?.close();
      client = null;
      await supervising;
      supervising = null;
      state.update({ up: false, publicUrl: null });
    },
    status: (): TunnelStatus => state.snapshot(),
    onChange: (listener) => state.subscribe(listener),
  };
}
