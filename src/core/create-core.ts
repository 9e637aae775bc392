// The core, composed from its ports (DESIGN.md): a data folder, a secret store, a clock, a logger and
// an HTTPS port factory. Every host (Electron main, the web host, the CLI, tests) builds exactly this.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Account } from '../shared/merchant/account';
import { createCatalogRepository, type CatalogRepository } from './catalog/catalog-repository';
import { searchProducts, type ProductSearchQuery, type ProductSearchResult } from './catalog/catalog-search';
import { probeAccount } from './connection/connect-probe';
import { clearMerchantCache, hasOpenWork, isSameAccount, MerchantSwitchRefusedError, openWork } from './connection/merchant-switch';
import { completeBaseUrl } from '../shared/connection-input';
import { checkConnectionInput, readApiKey, readConnection, writeApiKey, writeConnection, type ConnectionSettings } from './connection/connection-settings';
import { openPrivateDatabase } from './db/open-private-database';
import { rebuildStaleSearchDocuments } from './db/product-search-index';
import type { SecretAwareLogger } from './logging/logger';
import type { HttpPort } from './merchant/http-port';
import { createNodeHttpsPort } from './merchant/node-https-port';
import { createNotBeforeStore, type NotBeforeStore } from './merchant/not-before-store';
import { buildMerchantClients, buildMerchantServices, type MerchantServices, type ServiceParts } from './merchant-services';
import { systemClock, type Clock } from './platform/clock';
import type { SecretStore } from './secrets/secret-store';
import { CardCipher, DataKeyMissingError } from './vault/card-cipher';
import { ensureVaultKey } from './vault/card-store';
import { createVaultReader, type VaultReader } from './vault/vault-reader';
import type { WebhookFactory } from './webhooks/webhook-service';

export type { MerchantServices } from './merchant-services';

export interface CoreDeps {
  dataDir: string;
  secrets: SecretStore;
  logger: SecretAwareLogger;
  clock?: Clock;
  /** Builds the HTTPS port, trusting `ca` only when given (a sandbox). */
  http?: (ca: string | null) => HttpPort;
  /** Real milliseconds per merchant request. */
  requestTimeoutMs?: number;
  /** Real milliseconds the connect test (one GET /account, never retried) waits; default 5 s. */
  connectProbeTimeoutMs?: number;
  /**
   * Clock ms a merchant call may sleep through a Retry-After before it fails with
   * MerchantNotBeforeError (default DEFAULT_MAX_WAIT_MS, one quota window); a command host may pass 30 s.
   */
  merchantMaxWaitMs?: number;
  /** Builds the webhook side for each connection; without it (or attachWebhooks) orders are tracked by polling only. */
  webhooks?: WebhookFactory;
}


export interface Core {
  readonly db: Database;
  readonly clock: Clock;
  readonly catalog: CatalogRepository;
  readonly vault: VaultReader;
  /** Checks the credentials with GET /account, then stores them (the key in the secret store only). */
  connect(input: { baseUrl: string; userId: string; apiKey: string; caCertPem: string | null }): Promise<Account>;
  connection(): ConnectionSettings | null;
  /** The stored key, for a reconnect core itself decides (a new CA for the same merchant); never leaves core. */
  storedApiKey(): Promise<string | null>;
  /** The merchant services of the stored connection; throws NotConnectedError without one. */
  merchant(): Promise<MerchantServices>;
  search(query: ProductSearchQuery): ProductSearchResult;
  /**
   * The vault's data key is missing from the secret store although the database has cards sealed
   * with it (a memory-only store after a restart, a keyring that changed): cards cannot be read or
   * stored until the store is restored (restart with it) or the buyer starts a new key.
   */
  vaultKeyMissing(): boolean;
  /**
   * The buyer's explicit choice: a new data key; cards under the lost one are replaced when delivered
   * again. Returns the orders whose cards wait for that (to be fetched again).
   */
  startNewVaultKey(): Promise<string[]>;
  close(): Promise<void>;
}

export const DATABASE_FILE_NAME = 'procure-desk.sqlite';

export class NotConnectedError extends Error {
  override readonly name = 'NotConnectedError';
  constructor() {
    super('not connected to a merchant: connect first');
  }
}

/**
 * The vault's cipher under the stored data key; locked (never a new key in its place) when a key the
 * stored cards depend on is missing from the secret store.
 */
async function openVaultCipher(db: Database, secrets: SecretStore, clock: Clock, logger: SecretAwareLogger): Promise<CardCipher> {
  // Only keys that cards depend on: a key that sealed nothing (say, a memory-only store's previous
  // run without orders) can be replaced without losing anything.
  const knownKeyIds = db.prepare<[], { key_id: string }>('SELECT DISTINCT key_id FROM cards ORDER BY key_id').all().map((row) => row.key_id);
  try {
    const cipher = await CardCipher.open(secrets, { knownKeyIds });
    ensureVaultKey(db, cipher, Math.floor(clock.nowMs() / 1000));
    return cipher;
  } catch (error) {
    if (!(error instanceof DataKeyMissingError)) throw error;
    // Never a new key in its place: that would hide the loss of every stored card. Core still runs
    // (catalog, orders, the merchant), the vault refuses with DataKeyMissing until the buyer decides.
    logger.warn('vault data key missing from the secret store; the vault is locked', { store: secrets.kind, knownKeys: knownKeyIds.length });
    return CardCipher.locked();
  }
}

export async function createCore(deps: CoreDeps): Promise<Core> {
  const clock = deps.clock ?? systemClock;
  const { logger, secrets } = deps;
  const makeHttp = deps.http ?? ((ca: string | null) => createNodeHttpsPort(ca === null ? {} : { ca }));
  // Private (folder 0700, files 0600 on every start) and migrated.
  const db = openPrivateDatabase(join(deps.dataDir, DATABASE_FILE_NAME));
  // Search documents written before pinyin spellings existed (0023) get them now, once.
  rebuildStaleSearchDocuments(db);
  const cipher = await openVaultCipher(db, secrets, clock, logger);
  const catalog = createCatalogRepository(db, clock);
  const vault = createVaultReader({ db, cipher, now: () => Math.floor(clock.nowMs() / 1000) });
  let services: MerchantServices | null = null;

  // Retry-After holds live in the database: every process on this data folder obeys them.
  const notBefore: NotBeforeStore = createNotBeforeStore(db);
  const parts: ServiceParts = {
    db,
    clock,
    logger,
    cipher,
    catalog,
    secrets,
    notBefore,
    makeHttp,
    ...(deps.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: deps.requestTimeoutMs }),
    ...(deps.connectProbeTimeoutMs === undefined ? {} : { connectProbeTimeoutMs: deps.connectProbeTimeoutMs }),
    ...(deps.merchantMaxWaitMs === undefined ? {} : { merchantMaxWaitMs: deps.merchantMaxWaitMs }),
    ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
  };

  const stopServices = async (current: MerchantServices | null): Promise<void> => {
    await current?.stopWorkers();
  };

  return {
    db,
    clock,
    catalog,
    vault,
    async connect(input) {
      checkConnectionInput(input);
      const settings: ConnectionSettings = { baseUrl: completeBaseUrl(input.baseUrl), userId: input.userId.trim(), caCertPem: input.caCertPem };
      const built = buildMerchantClients(parts, settings, input.apiKey);
      // Sent once: a wrong address, port or certificate is named in seconds, not after a backoff.
      const account = await probeAccount(built.probeClient);
      // Another account's cache must not be shown or ordered from; its open work blocks the switch.
      const previous = readConnection(db);
      const switching = previous !== null && !isSameAccount({ ...previous, accountRef: previous.accountRef ?? null }, { ...settings, accountRef: account.accountRef });
      if (switching) {
        const work = openWork(db);
        if (hasOpenWork(work)) throw new MerchantSwitchRefusedError(work);
      }
      await writeApiKey(secrets, input.apiKey);
      await stopServices(services);
      services = null;
      if (switching) {
        clearMerchantCache(db);
        // Another account's Retry-After says nothing about this one.
        notBefore.clear();
      }
      writeConnection(db, { ...settings, accountRef: account.accountRef }, Math.floor(clock.nowMs() / 1000));
      services = buildMerchantServices(parts, built);
      // GET /account has just accepted this key: orders parked for a refused key (or a suspension now over) go on.
      services.outbox.keyAccepted(account.accessState);
      logger.info('connected to merchant', { baseUrl: settings.baseUrl, accountRef: account.accountRef });
      return account;
    },
    connection: () => readConnection(db),
    storedApiKey: () => readApiKey(secrets),
    async merchant() {
      if (services) return services;
      const settings = readConnection(db);
      const apiKey = await readApiKey(secrets);
      if (settings === null || apiKey === null) throw new NotConnectedError();
      services = buildMerchantServices(parts, buildMerchantClients(parts, settings, apiKey));
      return services;
    },
    search: (query) => searchProducts(db, query),
    vaultKeyMissing: () => cipher.isLocked,
    async startNewVaultKey() {
      await cipher.adoptNewKey(secrets);
      ensureVaultKey(db, cipher, Math.floor(clock.nowMs() / 1000));
      logger.warn('a new vault data key was started; cards sealed under the lost key are replaced when delivered again');
      return db.prepare<[string], { ref: string }>('SELECT DISTINCT client_order_ref AS ref FROM cards WHERE key_id <> ? ORDER BY ref').all(cipher.keyId).map((row) => row.ref);
    },
    async close() {
      await stopServices(services);
      services = null;
      cipher.dispose();
      db.close();
    },
  };
}
