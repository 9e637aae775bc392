// Two merchants side by side (issue 17): two in-process sandboxes with different catalogs and prices
// (another seed and size), one desk over a data folder on disk, and the desk service the hosts run
// (createDeskService over openDesk) with p1 connected to merchant A and p2 to merchant B. The secret
// store remembers every name ever written, so a test can tell which secrets a profile left behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeskService } from '../../../src/core/app/desk-service';
import type { AppService } from '../../../src/core/app/app-service';
import { openDesk, type Desk } from '../../../src/core/desk/desk';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import type { ChannelName, ChannelOutput, EventName } from '../../../src/shared/ipc/contract';
import type { IpcResult } from '../../../src/shared/ipc/ipc-result';
import { startMerchant, waitFor, type Merchant } from '../app/app-kit';

export const SCALE = 10;

/** A memory store that also remembers which names it holds (the OS keyring's list, as it were). */
export class NamedSecretStore extends MemorySecretStore {
  readonly names = new Set<string>();
  override async set(name: string, value: string): Promise<void> {
    await super.set(name, value);
    this.names.add(name);
  }
  override async delete(name: string): Promise<void> {
    await super.delete(name);
    this.names.delete(name);
  }
}

export interface Side {
  readonly merchant: Merchant;
  readonly account: { userId: string; apiKey: string };
}

export interface TwoMerchants {
  readonly a: Side;
  readonly b: Side;
  readonly dataDir: string;
  readonly desk: Desk;
  readonly app: AppService;
  readonly secrets: NamedSecretStore;
  readonly events: { event: EventName; payload: unknown }[];
  readonly logLines: string[];
  call(channel: string, input?: unknown): Promise<IpcResult<unknown>>;
  ok<C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>>;
  /** Makes the profile active (what the header's switcher does). */
  use(profileId: string): Promise<void>;
  /** Syncs the active profile's catalog to its end. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export async function startSide(options: { products: number; seed: number }): Promise<Side> {
  const merchant = await startMerchant({ timeScale: SCALE, autoAdvance: false, ...options });
  return { merchant, account: await merchant.newAccount('100000') };
}

export async function openTwoMerchants(a: Side, b: Side): Promise<TwoMerchants> {
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-two-merchants-'));
  const logLines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
  const secrets = new NamedSecretStore();
  const ports: ReturnType<typeof createNodeHttpsPort>[] = [];
  const http = (ca: string | null): HttpPort => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    ports.push(port);
    return port;
  };
  const desk = openDesk({ dataDir, secrets, logger, clock: createScaledClock(SCALE), http });
  const app = createDeskService(desk, { startDemoMerchant: () => Promise.reject(new Error('no demo here')) }, { logger, secrets, changeScanIntervalMs: 100 });
  const events: TwoMerchants['events'] = [];
  app.onEvent((event, payload) => events.push({ event, payload }));
  const call = (channel: string, input?: unknown): Promise<IpcResult<unknown>> => app.handle(channel, input);
  const ok = async <C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>> => {
    const result = await call(channel, input);
    if (!result.ok) throw new Error(`${channel} answered ${JSON.stringify(result.error)}`);
    return result.value as ChannelOutput<C>;
  };
  const connect = (side: Side): Promise<unknown> =>
    ok('connection.connect', { baseUrl: side.merchant.sandbox.baseUrl, userId: side.account.userId, apiKey: side.account.apiKey, caCertPem: side.merchant.caCertPem });
  const sync = async (): Promise<void> => {
    await ok('catalog.sync');
    await waitFor('the catalog sync', async () => {
      const status = await ok('catalog.syncStatus');
      return !status.running && status.lastSyncedAt !== null;
    }, 60_000);
  };
  await app.start();
  await connect(a);
  await sync();
  // A new profile becomes the active one (the screen goes on to connect it).
  await ok('profiles.add', { name: 'Merchant B' });
  await connect(b);
  await sync();
  return {
    a,
    b,
    dataDir,
    desk,
    app,
    secrets,
    events,
    logLines,
    call,
    ok,
    async use(profileId) {
      await ok('profiles.switch', { profileId });
    },
    sync,
    async close() {
      await app.stop();
      await desk.close();
      for (const port of ports) port.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
