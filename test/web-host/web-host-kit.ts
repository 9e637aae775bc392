// Helpers for the web host's tests: a tiny built renderer in a temp folder, a fake app service, and
// a Node `ws` client that speaks the wire protocol.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { EventName } from '../../src/shared/ipc/contract';
import type { IpcResult } from '../../src/shared/ipc/ipc-result';
import type { BridgeService } from '../../src/web-host/bridge-service';
import type { Logger } from '../../src/core/logging/logger';

export const quietLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Procure Desk</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

const madeDirs: string[] = [];
// The fake folders are tiny; they are removed when the test file's worker ends.
process.once('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder shaped like out/renderer, inside a parent that also holds a secret file next to it. */
export function fakeRendererDir(): { dir: string; parent: string } {
  const parent = mkdtempSync(join(tmpdir(), 'procure-web-test-'));
  madeDirs.push(parent);
  const dir = join(parent, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log("app");\n');
  writeFileSync(join(parent, 'secret.txt'), 'TOP-SECRET-OUTSIDE\n');
  return { dir, parent };
}

export function fakeService(answer: (channel: string, input: unknown) => Promise<IpcResult<unknown>> | IpcResult<unknown>) {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const service: BridgeService = {
    handle: async (channel, input) => answer(channel, input),
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (event: EventName, payload: unknown): void => {
    for (const listener of listeners) listener(event, payload);
  };
  return { service, emit, listenerCount: () => listeners.size };
}

export function socketUrl(origin: string, socketPath: string): string {
  return `${origin.replace(/^http:/, 'ws:')}${socketPath}`;
}

/** What a browser does with a launch URL: POSTs the fragment's secret as JSON from the page's origin. */
export async function redeemLaunchUrl(launchUrl: string, init: { origin?: string; contentType?: string } = {}): Promise<Response> {
  const url = new URL(launchUrl);
  const secret = new URLSearchParams(url.hash.slice(1)).get('k') ?? '';
  return fetch(`${url.origin}/session`, {
    method: 'POST',
    headers: { Origin: init.origin ?? url.origin, 'Content-Type': init.contentType ?? 'application/json' },
    body: JSON.stringify({ secret }),
    redirect: 'manual',
  });
}

/** The `name=value` part of a Set-Cookie answer, ready for a Cookie header. */
export function cookieOf(response: Response): string {
  const set = response.headers.get('set-cookie');
  if (set === null) throw new Error(`no Set-Cookie (status ${response.status})`);
  return set.split(';', 1)[0] ?? '';
}

/** A session as the page gets one: a fresh launch URL redeemed; the Cookie header value. */
export async function openSession(host: { issueLaunchUrl(): string }): Promise<string> {
  const answer = await redeemLaunchUrl(host.issueLaunchUrl());
  if (answer.status !== 204) throw new Error(`the launch secret was refused with ${answer.status}`);
  return cookieOf(answer);
}

/** Opens a client; resolves when open, rejects with the refusal's status when the upgrade is refused. */
export function openClient(url: string, origin: string | undefined, cookie?: string): Promise<WireClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { ...(origin === undefined ? {} : { origin }), ...(cookie === undefined ? {} : { headers: { Cookie: cookie } }) });
    const client = new WireClient(socket);
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_request, response) => {
      reject(new Error(`refused with ${response.statusCode ?? 0}`));
      socket.terminate();
    });
    socket.once('error', (error) => reject(error));
  });
}

export class WireClient {
  readonly frames: unknown[] = [];
  private waiters: { match: (frame: unknown) => boolean; resolve: (frame: unknown) => void }[] = [];
  private nextId = 1;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const frame: unknown = JSON.parse(data.toString('utf8'));
      this.frames.push(frame);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(frame)) {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.resolve(frame);
        }
      }
    });
  }

  waitFor(match: (frame: unknown) => boolean, timeoutMs = 20_000): Promise<unknown> {
    const seen = this.frames.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching frame in time')), timeoutMs);
      this.waiters.push({ match, resolve: (frame) => (clearTimeout(timer), resolve(frame)) });
    });
  }

  sendRaw(text: string): void {
    this.socket.send(text);
  }

  async call(channel: string, input?: unknown): Promise<IpcResult<unknown>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, channel, input }));
    const frame = (await this.waitFor((f) => typeof f === 'object' && f !== null && 'id' in f && f.id === id)) as { result: IpcResult<unknown> };
    return frame.result;
  }

  close(): void {
    this.socket.close();
  }
}
