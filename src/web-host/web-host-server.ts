// The web host's HTTP side: the built renderer on 127.0.0.1 only, and one WebSocket path carrying the
// contract. The path holds a random token that only the served index.html knows, and an upgrade is
// refused unless that token matches AND the Origin is the host's own: another site open in the same
// browser can neither guess the token nor pass the Origin check. The Host header is checked too, so a
// DNS-rebound name cannot read index.html (and the token in it) as if it were its own page.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { WEB_SOCKET_MAX_PAYLOAD_BYTES } from '../shared/ipc/web-socket-protocol';
import type { Logger } from '../main/core/logging/logger';
import type { BridgeService } from './bridge-service';
import type { BrowserClipboard } from './browser-clipboard';
import { send, serveBridgeSocket, type FrameCheck } from './bridge-socket';
import type { RendererFiles } from './renderer-files';
import { COMMON_HEADERS, injectBridgeMeta, webContentSecurityPolicy } from './web-page-security';

export interface WebHostOptions {
  service: BridgeService;
  renderer: RendererFiles;
  logger: Logger;
  /** 0 picks a free port. */
  port: number;
  /** Tests pass one; otherwise 32 random bytes. */
  token?: string;
  /** A frame for which this says false is not sent (the API key guard). Default: all frames go. */
  allowFrame?: FrameCheck;
  /** Carries vault.copy to the tab that asked (browser-clipboard.ts); absent: calls run without one. */
  clipboard?: BrowserClipboard;
}

export interface WebHost {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly origin: string;
  /** `/bridge/TOKEN`: a secret, never logged. */
  readonly socketPath: string;
  close(): Promise<void>;
}

const BRIDGE_PREFIX = '/bridge/';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuseUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function plain(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...COMMON_HEADERS, ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`${text}\n`);
}

/** The URL path decoded, or null when it tries to leave the folder or cannot be read. */
function safePath(rawUrl: string): string | null {
  const pathOnly = rawUrl.split(/[?#]/, 1)[0] ?? '';
  if (!pathOnly.startsWith('/')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathOnly);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  return decoded;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { service, renderer, logger } = options;
  const allowFrame = options.allowFrame ?? (() => true);
  const token = options.token ?? randomBytes(32).toString('base64url');
  const socketPath = `${BRIDGE_PREFIX}${token}`;
  const indexHtml = Buffer.from(injectBridgeMeta(renderer.indexHtml, socketPath), 'utf8');
  let port = 0;
  const allowedHosts = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];
  /** The page's own origin as the browser names it, or null for a Host that is not ours. */
  const ownOrigin = (request: IncomingMessage): string | null => {
    const host = request.headers.host ?? '';
    return allowedHosts().includes(host) ? `http://${host}` : null;
  };

  const serveRequest = (request: IncomingMessage, response: ServerResponse): void => {
    const origin = ownOrigin(request);
    if (origin === null) {
      plain(response, 421, `open http://127.0.0.1:${port}/`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      plain(response, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const path = safePath(request.url ?? '/');
    if (path === null) {
      plain(response, 400, 'bad path');
      return;
    }
    const csp = { 'Content-Security-Policy': webContentSecurityPolicy(origin) };
    if (path === '/' || path === '/index.html') {
      response.writeHead(200, { ...COMMON_HEADERS, ...csp, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : indexHtml);
      return;
    }
    const file = renderer.get(path);
    if (file === null) {
      plain(response, 404, 'not found', csp);
      return;
    }
    response.writeHead(200, { ...COMMON_HEADERS, ...csp, 'Content-Type': file.contentType, 'Cache-Control': 'no-cache' });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  };

  const server = createServer(serveRequest);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: WEB_SOCKET_MAX_PAYLOAD_BYTES });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const origin = ownOrigin(request);
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    const tokenOk = path.startsWith(BRIDGE_PREFIX) && sameSecret(path.slice(BRIDGE_PREFIX.length), token);
    // Neither the path nor the token given is logged: a near miss could still be a secret.
    if (origin === null || request.headers.origin !== origin || !tokenOk) {
      logger.warn('web host: refused a WebSocket', { originOk: origin !== null && request.headers.origin === origin, tokenOk });
      refuseUpgrade(socket, '403 Forbidden');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => {
      sockets.emit('connection', client, request);
      serveBridgeSocket(client, service, allowFrame, logger, options.clipboard);
    });
  });

  const unsubscribe = service.onEvent((event, payload) => {
    for (const client of sockets.clients) send(client, { event, payload }, allowFrame, logger);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // 127.0.0.1 only: the host is for this machine's browser, never the network.
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | null = null;

  return {
    url: `${origin}/`,
    origin,
    socketPath,
    close() {
      closed ??= (async () => {
        unsubscribe();
        for (const client of sockets.clients) client.terminate();
        await new Promise<void>((resolve) => sockets.close(() => resolve()));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
}
