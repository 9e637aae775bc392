// A scriptable webhook receiver on 127.0.0.1 for conformance tests: records every request and answers
// whatever the test says (status, body, delay, redirect).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Parsed JSON body, undefined if not JSON. */
  json: Record<string, unknown> | undefined;
  receivedAt: number;
}

export interface HookReply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Changes how the next requests are answered. */
  reply(fn: (hook: ReceivedHook) => HookReply): void;
  /** Waits until `predicate` holds for the received list, or throws after `timeoutMs`. */
  waitFor(predicate: (hooks: ReceivedHook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  let answer: (hook: ReceivedHook) => HookReply = () => ({ status: 200, body: 'OK' });
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      const hook: ReceivedHook = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, receivedAt: Date.now() };
      received.push(hook);
      const reply = answer(hook);
      const send = (): void => {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? 'OK');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    reply: (fn) => {
      answer = fn;
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`webhook wait timed out; received ${received.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
