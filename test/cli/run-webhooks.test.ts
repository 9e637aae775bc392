// `run --webhook-port 0 --tunnel loopback` starts the receiver, prints the callback URL it registered
// (one JSON line), and publishes it with a heartbeat; an `order create` in another process on the
// same data folder carries it as orderCallbackUrl, the sandbox delivers the order's webhooks to it,
// and the running process completes the order from them, before its first poll would have come.
// Once `run` stops, new orders carry no URL. The ngrok authtoken is handed over like the API key
// (environment or stdin) and read by `run --tunnel ngrok` from the secret store. Bad flags are usage errors.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { NGROK_AUTHTOKEN_SECRET } from '../../src/core/webhooks/tunnels/ngrok-tunnel';
import { PassphraseSecretStore } from '../../src/core/secrets/passphrase-secret-store';
import { CLI_ENTRY, jsonOf, listOrders, PASSPHRASE, pickCardProduct, runCli, spawnCli, type SpawnedCli } from './cli-kit';

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

/** The CLI with extra environment variables (stdin closed at once): exit code and output. */
function runCliWithEnv(dir: string, args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...CLI_ENTRY, '--data', dir, ...args], {
    cwd: process.cwd(),
    env: { ...process.env, PROCURE_PASSPHRASE: PASSPHRASE, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

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

  it('stores the ngrok authtoken from the environment or stdin (never argv), and run --tunnel ngrok then uses it without showing it', async () => {
    const ownDir = mkdtempSync(join(tmpdir(), 'procure-cli-ngrok-'));
    try {
      const connected = await runCli(ownDir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
      expect(connected.code).toBe(0);
      const missing = await runCli(ownDir, ['run', '--tunnel', 'ngrok']);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('no ngrok authtoken is stored');

      const token = `2fakeNgrokToken${Date.now()}_from_stdin`;
      const stored = await runCli(ownDir, ['tunnel', 'ngrok-authtoken'], { stdin: `${token}\n`, secrets: [token] });
      expect(stored.code, stored.stderr).toBe(0);
      expect(jsonOf<{ ngrokAuthtoken: string }>(stored)).toEqual({ ngrokAuthtoken: 'stored' });
      expect(stored.stdout + stored.stderr).not.toContain(token);
      const secrets = await PassphraseSecretStore.open({ filePath: join(ownDir, 'secrets.json'), passphrase: PASSPHRASE });
      expect(await secrets.get(NGROK_AUTHTOKEN_SECRET)).toBe(token);
      expect(readFileSync(join(ownDir, 'secrets.json'), 'utf8')).not.toContain(token);

      // The agent cannot reach ngrok here (or refuses a made-up token where it can): either way the
      // stored token was read, and neither the error nor the log shows it.
      const run = await runCli(ownDir, ['run', '--tunnel', 'ngrok'], { secrets: [token], timeoutMs: 60_000 });
      expect(run.code).not.toBe(0);
      expect(run.stderr).not.toContain('no ngrok authtoken is stored');
      expect(run.stderr).toMatch(/ngrok/);
      expect(run.stdout + run.stderr).not.toContain(token);
      expect(readFileSync(join(ownDir, 'procure-desk.log'), 'utf8')).not.toContain(token);

      const fromEnv = `2otherFakeToken${Date.now()}_from_env`;
      const viaEnv = await runCliWithEnv(ownDir, ['tunnel', 'ngrok-authtoken'], { PROCURE_NGROK_AUTHTOKEN: fromEnv });
      expect(viaEnv.code, viaEnv.stderr).toBe(0);
      expect(viaEnv.stdout + viaEnv.stderr).not.toContain(fromEnv);
      const reopened = await PassphraseSecretStore.open({ filePath: join(ownDir, 'secrets.json'), passphrase: PASSPHRASE });
      expect(await reopened.get(NGROK_AUTHTOKEN_SECRET)).toBe(fromEnv);
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses an unknown tunnel, a port out of range and a public URL that is not HTTPS', async () => {
    for (const args of [['--tunnel', 'carrier-pigeon'], ['--webhook-port', '70000'], ['--webhook-port', 'x'], ['--tunnel', 'url:http://hooks.example.com']]) {
      const result = await runCli(dataDir, ['run', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  }, 60_000);
});
