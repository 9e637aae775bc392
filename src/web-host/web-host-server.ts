// The web host's HTTP side: the built renderer on 127.0.0.1 only, one WebSocket path carrying the
// contract, and the session door (browser-sessions.ts). Nothing served over HTTP is a credential: the
// page holds no token, and the WebSocket opens only for a browser holding a session cookie it got by
// redeeming a one-time launch secret, with the host's own Origin (another site open in the same
// browser cannot pass it) and Host (a DNS-rebound name cannot pose as this page).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { MERCHANT_IMAGE_PATH } from '../shared/merchant-image-route';
import { WEB_BRIDGE_PATH, WEB_EXPORT_DOWNLOAD_PATH, WEB_LAUNCH_FRAGMENT_KEY, WEB_SESSION_PATH, WEB_SOCKET_MAX_PAYLOAD_BYTES } from '../shared/ipc/web-socket-protocol';
import type { Logger } from '../core';
import type { BridgeService } from './bridge-service';
import type { BrowserClipboard } from './browser-clipboard';
import { send, serveBridgeSocket, type FrameCheck } from './bridge-socket';
import { createBrowserSessions, type BrowserSessions } from './browser-sessions';
import type { ExportDownloads } from './export-downloads';
import type { RendererFiles } from './renderer-files';
import { serveMerchantImage, type MerchantImageSource } from './merchant-image-endpoint';
import { serveSession } from './session-endpoint';
import { COMMON_HEADERS, injectBridgeMeta, webContentSecurityPolicy } from './web-page-security';

export interface WebHostOptions {
  service: BridgeService;
  renderer: RendererFiles;
  logger: Logger;
  /** 0 picks a free port. */
  port: number;
  /** A frame for which this says false is not sent (the API key guard). Default: all frames go. */
  allowFrame?: FrameCheck;
  /** Carries vault.copy to the tab that asked (browser-clipboard.ts); absent: calls run without one. */
  clipboard?: BrowserClipboard;
  /** Merchant images for the page, fetched by core within its limits; absent: the route answers 404. */
  merchantImage?: MerchantImageSource;
  /** Hands vault.export's file to the tab that asked as a one-time download; absent: answers as core gave them. */
  exportDownloads?: ExportDownloads;
}

export interface WebHost {
  /** `http://127.0.0.1:PORT/`: the page, which opens nothing without a session. */
  readonly url: string;
  readonly origin: string;
  /** `/bridge`: the WebSocket path (no secret in it). */
  readonly socketPath: string;
  /** `http://127.0.0.1:PORT/#k=SECRET`: opens one browser session, once. Printed, never logged. */
  issueLaunchUrl(): string;
  close(): Promise<void>;
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
  const indexHtml = Buffer.from(injectBridgeMeta(renderer.indexHtml, WEB_BRIDGE_PATH), 'utf8');
  let port = 0;
  // Made once the port is known (the cookie's name carries it); no request is served before that.
  let sessions: BrowserSessions | null = null;
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
    const path = safePath(request.url ?? '/');
    if (path === WEB_SESSION_PATH && sessions !== null) {
      serveSession(request, response, origin, sessions, logger);
      return;
    }
    if (path?.startsWith(WEB_EXPORT_DOWNLOAD_PATH) === true) {
      if (options.exportDownloads === undefined) plain(response, 404, 'not found');
      else options.exportDownloads.serve(request, response, sessions);
      return;
    }
    if (path === MERCHANT_IMAGE_PATH) {
      serveMerchantImage(request, response, sessions, options.merchantImage);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      plain(response, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
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
    const sessionId = sessions?.sessionOf(request.headers.cookie) ?? null;
    const sessionOk = sessionId !== null;
    const originOk = origin !== null && request.headers.origin === origin;
    // The cookie given is not logged: a near miss could still be a secret.
    if (path !== WEB_BRIDGE_PATH || !originOk || !sessionOk) {
      logger.warn('web host: refused a WebSocket', { pathOk: path === WEB_BRIDGE_PATH, originOk, sessionOk });
      refuseUpgrade(socket, '403 Forbidden');
      return;
    }
    const downloads = options.exportDownloads;
    // Each call of this socket runs as its session's, so an export it asks for is that session's download only.
    const socketService: BridgeService =
      downloads === undefined || sessionId === null ? service : { ...service, handle: (channel, input) => downloads.runFor(sessionId, () => service.handle(channel, input)) };
    sockets.handleUpgrade(request, socket, head, (client) => {
      sockets.emit('connection', client, request);
      serveBridgeSocket(client, socketService, allowFrame, logger, options.clipboard);
      if (service.coreReconnecting?.() === true) send(client, { event: 'core.state', payload: { state: 'reconnecting' } }, allowFrame, logger);
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
  const book = createBrowserSessions(port);
  sessions = book;
  const origin = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | null = null;

  return {
    url: `${origin}/`,
    origin,
    socketPath: WEB_BRIDGE_PATH,
    issueLaunchUrl: () => `${origin}/#${WEB_LAUNCH_FRAGMENT_KEY}=${book.issueLaunchSecret()}`,
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
