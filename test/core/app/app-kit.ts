// The app service as a host builds it (like src/cli/cli-context.ts, with a memory secret store): core
// over SQLite on disk with a scaled clock, a redacting logger into memory, and a host whose demo
// merchant is an in-process sandbox (src/sandbox/start-sandbox.ts). Merchants are in-process sandboxes
// over HTTPS; their control API sets accounts and moves orders. Every answer and event is recorded so
// tests can check that no secret ever left.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CHANNELS, EVENTS, isChannelName, type ChannelName, type ChannelOutput, type EventName } from '../../../src/shared/ipc/contract';
import { ipcErrorSchema, ipcResultSchema, type IpcResult } from '../../../src/shared/ipc/ipc-result';
import { createAppService, type AppHost, type AppService } from '../../../src/core/app/app-service';
import { createCore, type Core } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { DEFAULT_OPTIONS, type SandboxOptions } from '../../../src/sandbox/sandbox-options';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/start-sandbox';
import { Catalog, type ControlProduct } from '../../support/orders-harness';
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';
import { controlHeaders } from '../../support/control-auth';

export interface Merchant {
  readonly sandbox: RunningSandbox;
  readonly caCertPem: string;
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  newAccount(balance?: string): Promise<{ userId: string; apiKey: string }>;
  products(): Promise<ControlProduct[]>;
  advance(clientOrderRef: string, to: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startMerchant(options: Partial<SandboxOptions> = {}): Promise<Merchant> {
  const sandbox = await startSandbox({ ...DEFAULT_OPTIONS, products: 60, ...options }, () => undefined);
  const control = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(sandbox.controlUrl + path, {
      method,
      headers: controlHeaders(sandbox.controlToken, method),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path} → ${res.status}: ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return {
    sandbox,
    caCertPem: readFileSync(sandbox.caCertFile, 'utf8'),
    control,
    newAccount: (balance = '100000') => control('POST', '/control/accounts', { balance }),
    products: () => control<ControlProduct[]>('GET', '/control/products?limit=1000'),
    advance: async (ref, to) => {
      await control('POST', `/control/orders/${ref}/advance`, { to });
    },
    stop: () => sandbox.stop(),
  };
}

export interface RecordedEvent {
  readonly event: EventName;
  readonly payload: unknown;
}

export interface AppKit {
  readonly core: Core;
  readonly app: AppService;
  readonly host: AppHost & { clipboard: { text: string; clearAfterMs: number }[] };
  readonly dataDir: string;
  readonly logLines: string[];
  readonly events: RecordedEvent[];
  /** Every answer handle() gave. */
  readonly answers: { channel: string; result: IpcResult<unknown> }[];
  /** Requests core handed to the HTTPS transport. */
  readonly requests: { method: string; url: string }[];
  call(channel: string, input?: unknown): Promise<IpcResult<unknown>>;
  ok<C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>>;
  demoMerchant(): Merchant | null;
  /** Secrets seen in this run (API keys), checked against answers, events and log lines. */
  readonly secrets: string[];
  close(): Promise<void>;
}

/** `coreOptions`: core settings a test needs shorter (the connect probe's timeout). */
export async function createAppKit(scale: number, coreOptions: { connectProbeTimeoutMs?: number } = {}): Promise<AppKit> {
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-app-'));
  const logLines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
  const secrets = new MemorySecretStore();
  const requests: { method: string; url: string }[] = [];
  const ports: ReturnType<typeof createNodeHttpsPort>[] = [];
  const http = (ca: string | null): HttpPort => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    ports.push(port);
    return (request) => {
      requests.push({ method: request.method, url: request.url });
      return port(request);
    };
  };
  const core = await createCore({ dataDir, secrets, logger, clock: createScaledClock(scale), http, ...coreOptions });
  let demo: Merchant | null = null;
  const seenSecrets: string[] = [];
  const host: AppKit['host'] = {
    clipboard: [],
    async startDemoMerchant() {
      demo ??= await startMerchant({ timeScale: scale });
      seenSecrets.push(demo.sandbox.apiKey);
      return { baseUrl: demo.sandbox.baseUrl, userId: demo.sandbox.userId, apiKey: demo.sandbox.apiKey, caCertPem: demo.caCertPem };
    },
    writeClipboard(text, clearAfterMs) {
      host.clipboard.push({ text, clearAfterMs });
      return Promise.resolve();
    },
  };
  const app = createAppService(core, host, { logger, secrets, changeScanIntervalMs: 100 });
  const events: RecordedEvent[] = [];
  app.onEvent((event, payload) => events.push({ event, payload }));
  const answers: AppKit['answers'] = [];
  const call = async (channel: string, input?: unknown): Promise<IpcResult<unknown>> => {
    const result = await app.handle(channel, input);
    answers.push({ channel, result });
    return result;
  };
  return {
    core,
    app,
    host,
    dataDir,
    logLines,
    events,
    answers,
    requests,
    call,
    async ok<C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>> {
      const result = await call(channel, input);
      if (!result.ok) throw new Error(`${channel} answered ${JSON.stringify(result.error)}`);
      return result.value as ChannelOutput<C>;
    },
    demoMerchant: () => demo,
    secrets: seenSecrets,
    async close() {
      await app.stop();
      await core.close();
      for (const port of ports) port.close();
      await demo?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fails with the answer when it is not the expected refusal. */
export function expectRefused(result: IpcResult<unknown>, code: string): Extract<IpcResult<unknown>, { ok: false }>['error'] {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.error.code, JSON.stringify(result.error)).toBe(code);
  return result.error;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined> | T | null | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** No secret in any answer, event or log line of the run. */
export function expectNoSecretLeft(kit: AppKit, secrets: readonly string[]): void {
  const everything = [...kit.answers.map((a) => JSON.stringify(a.result)), ...kit.events.map((e) => JSON.stringify(e)), ...kit.logLines].join('\n');
  for (const secret of secrets) expect(everything.includes(secret), `a secret (${secret.slice(0, 3)}…) leaked`).toBe(false);
}

/** Every answer was a valid IpcResult of its channel's output (or a valid error), every event fit its schema. */
export function expectContractShapes(kit: AppKit): void {
  expect(kit.answers.length).toBeGreaterThan(0);
  for (const { channel, result } of kit.answers) {
    const schema = isChannelName(channel) ? ipcResultSchema(CHANNELS[channel].output) : ipcResultSchema(ipcErrorSchema.shape.code);
    expect(schema.safeParse(result).success, `${channel}: ${JSON.stringify(result).slice(0, 300)}`).toBe(true);
  }
  for (const { event, payload } of kit.events) expect(EVENTS[event].safeParse(payload).success, event).toBe(true);
}

/** A sandbox merchant, an account on it with ¥100,000, and the app (started) connected to that account. */
export interface ConnectedApp {
  readonly merchant: Merchant;
  readonly kit: AppKit;
  readonly catalog: Catalog;
  readonly account: { userId: string; apiKey: string };
}

/**
 * Opens a ConnectedApp; orders progress only when a test moves them unless `sandbox` says otherwise.
 * `beforeStart` runs on the kit before the app starts (a host port a test replaces, a secret to watch).
 */
export async function openConnectedApp(scale: number, sandbox: Partial<SandboxOptions> = { autoAdvance: false }, beforeStart?: (kit: AppKit) => void): Promise<ConnectedApp> {
  const merchant = await startMerchant({ timeScale: scale, ...sandbox });
  const account = await merchant.newAccount('100000');
  const catalog = new Catalog(await merchant.products());
  const kit = await createAppKit(scale);
  kit.secrets.push(account.apiKey);
  beforeStart?.(kit);
  await kit.app.start();
  await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
  return { merchant, kit, catalog, account };
}

/** The order's detail once `predicate` holds (polled through orders.get). */
export function orderDetailWhen(kit: AppKit, ref: string, what: string, predicate: (detail: OrderDetail) => boolean): Promise<OrderDetail> {
  return waitFor(what, async () => {
    const detail = await kit.ok('orders.get', { clientOrderRef: ref });
    return predicate(detail) ? detail : null;
  });
}
