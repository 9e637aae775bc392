// Throwaway merchants on 127.0.0.1 for the connect failures: HTTPS servers whose certificate is
// untrusted, for another host name or expired, a port nothing listens on, a plain-HTTP server, and
// one that answers every request with a fixed reply (the account, a 404 web page, a 401, silence).
// Each counts the TCP connections it accepted, so a test can assert that the connect test was sent once.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createCertificateAuthority, issueServerCertificate, type CaMaterial } from '../../src/sandbox/tls/certificate-builder';

export interface TestCertificate {
  certPem: string;
  keyPem: string;
}

export { createCertificateAuthority, type CaMaterial };

/** A certificate for 127.0.0.1 signed by `ca`. */
export function localCertificate(ca: CaMaterial): Promise<TestCertificate> {
  return issueServerCertificate(ca, ['localhost'], ['127.0.0.1']);
}

/** A certificate signed by `ca` that names only another host: the client connecting to 127.0.0.1 refuses it. */
export function otherHostCertificate(ca: CaMaterial): Promise<TestCertificate> {
  return issueServerCertificate(ca, ['merchant.example.com'], []);
}

/** A certificate for 127.0.0.1 signed by `ca` whose validity ended yesterday. */
export function expiredCertificate(ca: CaMaterial): Promise<TestCertificate> {
  const day = 24 * 60 * 60 * 1000;
  return issueServerCertificate(ca, [], ['127.0.0.1'], { notBefore: new Date(Date.now() - 30 * day), notAfter: new Date(Date.now() - day) });
}

export interface FixedReply {
  status: number;
  body: string;
  contentType?: string;
  /** Never answer: the client's timeout has to end it. */
  hang?: boolean;
}

export interface TestServer {
  baseUrl: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** HTTP requests that arrived complete so far. */
  readonly requests: number;
  close(): Promise<void>;
}

const ACCOUNT_BODY = JSON.stringify({
  code: 0,
  message: 'success',
  requestId: 'req_00000000000000000000c0de',
  data: { accountRef: 7, userId: '170001', nickname: 'buyer', accessState: 'active', balance: 100.5, currency: 'CNY', contractRevision: '1.0.2' },
});

/** GET /account answered as the interface does. */
export const ACCOUNT_REPLY: FixedReply = { status: 200, body: ACCOUNT_BODY };

export function envelopeReply(status: number, code: number): FixedReply {
  return { status, body: JSON.stringify({ code, message: 'error text for people', data: null, requestId: 'req_00000000000000000000dead' }) };
}

export const HTML_404_REPLY: FixedReply = { status: 404, body: '<!doctype html><html><body><h1>404 Not Found</h1></body></html>', contentType: 'text/html' };

async function listen(server: Server | ReturnType<typeof createHttpsServer>, scheme: 'https' | 'http', counts: { connections: number; requests: number }): Promise<TestServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    counts.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client that refuses the certificate ends the handshake: expected here, not a test failure.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('test server has no port');
  return {
    baseUrl: `${scheme}://127.0.0.1:${address.port}/openapi/v1`,
    get connections() {
      return counts.connections;
    },
    get requests() {
      return counts.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(reply: FixedReply, counts: { requests: number }) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    req.resume();
    req.on('end', () => {
      counts.requests++;
      if (reply.hang === true) return;
      res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json', 'content-length': String(Buffer.byteLength(reply.body)) });
      res.end(reply.body);
    });
  };
}

/** An HTTPS server with this certificate answering every request with `reply`. */
export function startHttpsServer(cert: TestCertificate, reply: FixedReply = ACCOUNT_REPLY): Promise<TestServer> {
  const counts = { connections: 0, requests: 0 };
  return listen(createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, answer(reply, counts)), 'https', counts);
}

/** A plain-HTTP server: the app must never send it anything (the key would travel in clear text). */
export function startHttpServer(): Promise<TestServer> {
  const counts = { connections: 0, requests: 0 };
  return listen(createHttpServer(answer(ACCOUNT_REPLY, counts)), 'http', counts);
}

/** An https:// address on 127.0.0.1 where nothing listens (a port just freed). */
export async function closedPortUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `https://127.0.0.1:${address.port}/openapi/v1`;
}

/** A host name that never resolves (RFC 6761 reserves .invalid). */
export const UNRESOLVABLE_URL = 'https://merchant-procure-desk-test.invalid/openapi/v1';
