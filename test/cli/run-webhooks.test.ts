// `run --webhook-port 0 --tunnel loopback` starts the receiver, prints the callback URL it registered
// (one JSON line), and publishes it with a heartbeat; an `order create` in another process on the
// same data folder carries it as orderCallbackUrl, the sandbox delivers the order's webhooks to it,
// and the running process completes the order from them, before its first poll would have come.
// Once `run` stops, new orders carry no URL. Bad flags are usage errors.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { jsonOf, listOrders, pickCardProduct, runCli, spawnCli, type SpawnedCli } from './cli-kit';

let sandbox: RunningSandbox;
let dataDir: string;
let productRef: number;

beforeAll(async () => {
  sandbox = await startSandbox();
  dataDir = mkdtempSync(join(tmpdir(), 'procure-cli-run-'));
  const connected = await runCli(dataDir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], {
    apiKeyEnv: sandbox.apiKey,
  });
  if (connected.code !== 0) throw new Error(`connect failed: ${connected.stderr}`);
  ({ productRef } = await pickCardProduct(sandbox));
}, 90_000);

afterAll(async () => {
  await sandbox?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Resolves with the first stdout line of a running CLI. */
function firstLine(run: SpawnedCli, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no line from run within ${timeoutMs} ms; so far: ${text}`)), timeoutMs);
    const onData = (chunk: string): void => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      run.child.stdout?.off('data', onData);
      resolve(text.slice(0, end));
    };
    run.child.stdout?.on('data', onData);
    run.result.then(
      (r) => reject(new Error(`run exited ${String(r.code)} before printing: ${r.stderr}`)),
      (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
    );
  });
}

interface SandboxOrder {
  orderCallbackUrl: string | null;
  state: string;
}

async function merchantOrder(ref: string): Promise<SandboxOrder> {
  const res = await callApi<SandboxOrder>(sandbox, 'GET', `/orders/${ref}`);
  if (res.json === undefined) throw new Error(`GET /orders/${ref}: ${res.text}`);
  return res.json.data;
}

describe('cli run with webhooks', () => {
  it('prints the callback URL, and orders created meanwhile in another process carry it and complete by webhook', async () => {
    const run = spawnCli(dataDir, ['run', '--webhook-port', '0', '--tunnel', 'loopback'], { timeoutMs: 120_000 });
    try {
      const line = await firstLine(run);
      const { callbackUrl } = JSON.parse(line) as { callbackUrl: string };
      expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[A-Za-z0-9_-]{43}$/);

      const created = await runCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', '1', '--json']);
      expect(created.code).toBe(0);
      const { clientOrderRef } = jsonOf<{ clientOrderRef: string }>(created);
      const createdAt = Date.now();
      expect((await merchantOrder(clientOrderRef)).orderCallbackUrl).toBe(callbackUrl);

      // The sandbox completes the order about 5 s after creation; the first poll would come at 15 s.
      let completedAt = 0;
      const deadline = createdAt + 30_000;
      while (Date.now() < deadline) {
        const order = (await listOrders(dataDir)).find((o) => o.clientOrderRef === clientOrderRef);
        if (order?.state === 'completed') {
          completedAt = Date.now();
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect(completedAt).toBeGreaterThan(0);
      expect(completedAt - createdAt).toBeLessThan(12_000);

      const sent = (await control<{ eventType: string; url: string; ok: boolean }[]>(sandbox, 'GET', '/control/deliveries')).filter((d) => d.url === callbackUrl);
      expect(sent.filter((d) => d.eventType.startsWith('order.') && d.ok).map((d) => d.eventType).sort()).toEqual(['order.changed', 'order.changed', 'order.credentials.ready']);
      expect(sent.every((d) => d.ok)).toBe(true);
      // Processed in the running process from its inbox; the log never shows the path's token.
      const log = readFileSync(join(dataDir, 'procure-desk.log'), 'utf8');
      expect(log).toMatch(/webhook processed.*state completed/);
      expect(log).not.toContain(callbackUrl.split('/hooks/')[1] ?? 'no token');
    } finally {
      run.child.kill('SIGTERM');
    }
    const finished = await run.result;
    expect(finished.code).toBe(0);
    expect(finished.stdout.trim().split('\n')).toHaveLength(1);

    // Nothing runs the receiver now: a new order carries no callback URL.
    const later = await runCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', '1', '--json']);
    expect(later.code).toBe(0);
    expect((await merchantOrder(jsonOf<{ clientOrderRef: string }>(later).clientOrderRef)).orderCallbackUrl).toBeNull();
  }, 120_000);

  it('refuses an unknown tunnel, a port out of range and a public URL that is not HTTPS', async () => {
    for (const args of [['--tunnel', 'carrier-pigeon'], ['--webhook-port', '70000'], ['--webhook-port', 'x'], ['--tunnel', 'url:http://hooks.example.com']]) {
      const result = await runCli(dataDir, ['run', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  }, 60_000);
});
