// The desk service as the hosts run it (createDeskService over openDesk) with TWO merchants at once:
// two in-process sandboxes over HTTPS with different seeds (different catalogs and prices), each
// connected as its own profile (p1 = merchant A, p2 = merchant B), SQLite on disk, a scaled clock.
// `prepare` runs against each sandbox before its first sync, so a test can set prices and stock
// the caches then hold.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChannelName, ChannelOutput } from '../../../src/shared/ipc/contract';
import type { IpcResult } from '../../../src/shared/ipc/ipc-result';
import type { AppService } from '../../../src/core/app/app-service';
import { createDeskService } from '../../../src/core/app/desk-service';
import { openDesk, type Desk } from '../../../src/core/desk/desk';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import type { Ledger } from '../../support/orders-harness';
import { startMerchant, waitFor, type Merchant } from './app-kit';

export interface DeskMerchant {
  readonly merchant: Merchant;
  readonly account: { userId: string; apiKey: string };
  readonly profileId: string;
  ledger(): Promise<Ledger>;
}

export interface TwoMerchantDesk {
  readonly desk: Desk;
  readonly service: AppService;
  readonly a: DeskMerchant;
  readonly b: DeskMerchant;
  readonly logLines: string[];
  call(channel: string, input?: unknown): Promise<IpcResult<unknown>>;
  ok<C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>>;
  close(): Promise<void>;
}

export async function openTwoMerchantDesk(scale: number, prepare: (merchant: Merchant, which: 'a' | 'b') => Promise<void>): Promise<TwoMerchantDesk> {
  const [merchantA, merchantB] = await Promise.all([
    startMerchant({ timeScale: scale, autoAdvance: false, products: 60, seed: 11 }),
    startMerchant({ timeScale: scale, autoAdvance: false, products: 60, seed: 29 }),
  ]);
  const [accountA, accountB] = await Promise.all([merchantA.newAccount('100000'), merchantB.newAccount('100000')]);
  await prepare(merchantA, 'a');
  await prepare(merchantB, 'b');
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-desk-two-'));
  const logLines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
  const ports: ReturnType<typeof createNodeHttpsPort>[] = [];
  const http = (ca: string | null): HttpPort => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    ports.push(port);
    return port;
  };
  const desk = openDesk({ dataDir, secrets: new MemorySecretStore(), logger, clock: createScaledClock(scale), http });
  const service = createDeskService(desk, { startDemoMerchant: () => Promise.reject(new Error('no demo here')) }, { logger, changeScanIntervalMs: 100 });
  await service.start();
  const call = (channel: string, input?: unknown): Promise<IpcResult<unknown>> => service.handle(channel, input);
  const ok = async <C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>> => {
    const result = await call(channel, input);
    if (!result.ok) throw new Error(`${channel} answered ${JSON.stringify(result.error)}`);
    return result.value as ChannelOutput<C>;
  };
  const connectAndSync = async (merchant: Merchant, account: { userId: string; apiKey: string }): Promise<void> => {
    await ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    await ok('catalog.sync');
    await waitFor(
      'the first sync',
      async () => {
        const status = await ok('catalog.syncStatus');
        return !status.running && status.lastSyncedAt !== null ? status : null;
      },
      90_000,
    );
  };
  await connectAndSync(merchantA, accountA);
  await ok('profiles.add', { name: 'Merchant B' });
  await connectAndSync(merchantB, accountB);
  await ok('profiles.switch', { profileId: 'p1' });
  const entry = (merchant: Merchant, account: { userId: string; apiKey: string }, profileId: string): DeskMerchant => ({
    merchant,
    account,
    profileId,
    ledger: () => merchant.control<Ledger>('GET', `/control/ledger/${account.userId}`),
  });
  return {
    desk,
    service,
    a: entry(merchantA, accountA, 'p1'),
    b: entry(merchantB, accountB, 'p2'),
    logLines,
    call,
    ok,
    async close() {
      await service.stop();
      await desk.close();
      for (const port of ports) port.close();
      await Promise.all([merchantA.stop(), merchantB.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
