// A tiny HTTPS merchant on 127.0.0.1 that answers a scripted sequence (as stripe-node's tests do):
// each request takes the next reply, the last one repeats. It records what it was sent (method, path,
// headers, body bytes) so that tests can assert what was retried and with which content.
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSandboxTls } from '../../../src/sandbox/tls/certificate-authority';

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /**
   * `hang`: never answer (the client's timeout must act); `truncate`: announce a longer
   * Content-Length than sent, send part of the body, then cut the connection.
   */
  behaviour?: 'hang' | 'truncate';
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Real milliseconds (Date.now) when the whole request had arrived. */
  at: number;
}

export interface ScriptedServer {
  baseUrl: string;
  /** PEM of the CA that signed this server's certificate. */
  ca: string;
  requests: SeenRequest[];
  /** Replaces the script and forgets the requests seen so far. */
  script(replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

export interface TestCa {
  dir: string;
  ca: string;
  cert: string;
  key: string;
  remove(): void;
}

/** A fresh CA in a temp folder and a server certificate for 127.0.0.1 / localhost. */
export async function makeTestCa(): Promise<TestCa> {
  const dir = mkdtempSync(join(tmpdir(), 'procure-merchant-test-ca-'));
  const tls = await prepareSandboxTls({ dir, hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  return { dir, ca: tls.caCertPem, cert: tls.serverCertPem, key: tls.serverKeyPem, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function send(res: ServerResponse, reply: ScriptedReply): void {
  const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const bytes = Buffer.from(text, 'utf8');
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reply.headers };
  if (reply.behaviour === 'truncate') {
    res.writeHead(reply.status ?? 200, { ...headers, 'content-length': String(bytes.length + 500) });
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
    // Let the partial body reach the client before the connection is cut.
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  res.writeHead(reply.status ?? 200, { ...headers, 'content-length': String(bytes.length) });
  res.end(bytes);
}

export async function startScriptedServer(tls: TestCa, initial: ScriptedReply[] = []): Promise<ScriptedServer> {
  let replies = initial;
  let index = 0;
  const requests: SeenRequest[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const reply = replies[Math.min(index, replies.length - 1)] ?? { status: 500, body: 'no script' };
      index++;
      if (reply.behaviour === 'hang') return;
      send(res, reply);
    });
  };
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, handle);
  // A client that gives up on a hung request must not leave this test's server waiting for it.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('scripted server has no port');
  return {
    baseUrl: `https://127.0.0.1:${address.port}/openapi/v1`,
    ca: tls.ca,
    requests,
    script(next) {
      replies = next;
      index = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- Well-formed interface answers to script with ----

let requestCounter = 0;

/** A request id of the contract's form (`req_` + 24 lowercase hex), unique within the run. */
export function newRequestId(): string {
  requestCounter++;
  return `req_${requestCounter.toString(16).padStart(24, '0')}`;
}

export function success(data: unknown, requestId = newRequestId()): ScriptedReply {
  return { status: 200, headers: { 'x-request-id': requestId }, body: { code: 0, message: 'success', data, requestId } };
}

export function failure(status: number, code: number, extraHeaders: Record<string, string> = {}, requestId = newRequestId()): ScriptedReply {
  return { status, headers: { 'x-request-id': requestId, ...extraHeaders }, body: { code, message: 'error text for people', data: null, requestId } };
}

export const ACCOUNT_DATA = {
  accountRef: 7,
  userId: '170001',
  nickname: 'buyer',
  accessState: 'active',
  balance: 100.5,
  currency: 'CNY',
  contractRevision: '1.0.2',
};

export function orderData(clientOrderRef: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    clientOrderRef,
    platformOrderRef: '202401010000001',
    productRef: 1001,
    variantRef: 0,
    productName: '视频会员月卡',
    variantTitle: '月卡',
    productType: 'topup',
    units: 1,
    unitPrice: 18.5,
    totalAmount: 18.5,
    refundedAmount: 0,
    state: 'pending',
    allowedActions: ['cancel'],
    revision: 1,
    failureReason: null,
    verificationHint: null,
    createdAt: 1_700_000_000,
    updatedAt: 1_700_000_000,
    completedAt: null,
    orderCallbackUrl: null,
    imageUrl: null,
    entryCount: 1,
    refunds: [],
    card_list: null,
    ...overrides,
  };
}

export const PRODUCT_DATA = {
  productRef: 1001,
  catalogRef: 11,
  brand: null,
  availability: 'available',
  revision: 1_700_000_000,
  name: '视频会员月卡',
  productType: 'card',
  description: 'text',
  imageUrl: null,
  variants: [
    { variantRef: 0, title: '月卡', price: 18.5, availability: 'available', inventoryType: 'unlimited', remainingUnits: null, purchaseSchemaRevision: 1, faceValue: 20 },
  ],
};
