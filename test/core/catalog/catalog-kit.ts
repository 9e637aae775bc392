// What the catalog tests share: an on-disk migrated database with the catalog repository and
// reader over it, and a merchant client built as core builds it (node:https port, quota model,
// request sender) whose HttpPort counts requests and can run a hook before each one (used to
// abort a sync after N requests, as a crash would cut it off).
import type { Database } from 'better-sqlite3';
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createMerchantClient, type MerchantClient } from '../../../src/core/merchant/merchant-client';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createQuotaModel } from '../../../src/core/merchant/quota-model';
import { createRequestSender } from '../../../src/core/merchant/request-sender';
import { createScaledClock, type Clock } from '../../../src/core/platform/clock';
import { createCatalogReader, type CatalogReader } from '../../../src/core/catalog/catalog-reader';
import { createCatalogRepository, type CatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { recordingPort, silentLogger, type Exchange } from '../merchant/client-kit';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { control } from '../../support/merchant-http';
import type { RunningSandbox } from '../../support/sandbox-process';

export interface CatalogClientKit {
  readonly client: MerchantClient;
  readonly clock: Clock;
  readonly exchanges: Exchange[];
  /** Runs before every request handed to the transport (after the quota model let it go). */
  beforeRequest: ((count: number) => void) | null;
  close(): void;
}

/** A client on a fresh sandbox account, so its quota windows start empty like the model's. */
export async function freshClient(sandbox: RunningSandbox, scale: number): Promise<CatalogClientKit> {
  const account = await control<{ userId: string; apiKey: string }>(sandbox, 'POST', '/control/accounts', { balance: '1000' });
  const clock = createScaledClock(scale);
  const https = createNodeHttpsPort({ ca: sandbox.ca });
  const { port: recording, exchanges } = recordingPort(https, clock);
  // The port is only called after `kit` exists (by a request), so the forward reference is safe.
  const port: HttpPort = (request) => {
    kit.beforeRequest?.(exchanges.length + 1);
    return recording(request);
  };
  const send = createRequestSender({
    baseUrl: sandbox.baseUrl,
    credentials: () => Promise.resolve(account),
    http: port,
    quota: createQuotaModel(clock),
    clock,
    logger: silentLogger,
  });
  const kit: CatalogClientKit = { client: createMerchantClient(send), clock, exchanges, beforeRequest: null, close: () => https.close() };
  return kit;
}

export interface CatalogStore {
  readonly temp: TempDatabase;
  readonly db: Database;
  readonly repository: CatalogRepository;
  readonly reader: CatalogReader;
}

export function createCatalogStore(clock: Clock): CatalogStore {
  const temp = createMigratedDatabase();
  return { temp, db: temp.db, repository: createCatalogRepository(temp.db, clock), reader: createCatalogReader(temp.db) };
}

export function requestsTo(exchanges: readonly Exchange[], pathPart: string): Exchange[] {
  return exchanges.filter((e) => new URL(e.url).pathname.includes(pathPart));
}

export function count429(exchanges: readonly Exchange[]): number {
  return exchanges.filter((e) => e.status === 429).length;
}
