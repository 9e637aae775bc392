// The core, composed from its ports (DESIGN.md): a data folder, a secret store, a clock, a logger and
// an HTTPS port factory. Every host (Electron main, the web host, the CLI, tests) builds exactly this.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Account } from '../shared/merchant/account';
import { createAftersaleService, type AftersaleService } from './aftersales/aftersale-service';
import { createCatalogRepository, type CatalogRepository } from './catalog/catalog-repository';
import { runCatalogSync, type CatalogSyncSummary, type SyncProgress } from './catalog/catalog-sync';
import { searchProducts, type ProductSearchQuery, type ProductSearchResult } from './catalog/catalog-search';
import { clearMerchantCache, hasOpenWork, isSameAccount, MerchantSwitchRefusedError, openWork } from './connection/merchant-switch';
import { checkConnectionInput, readApiKey, readConnection, writeApiKey, writeConnection, type ConnectionSettings } from './connection/connection-settings';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-database';
import { readLiveCallbackUrl } from './webhooks/webhook-settings';
import { createProductWatchStore } from './webhooks/product-watch-store';
import { createWatchedProductPoll, type WatchedProductPoll } from './webhooks/watched-product-poll';
import type { WebhookFactory, WebhookService } from './webhooks/webhook-service';
import type { SecretAwareLogger } from './logging/logger';
import type { HttpPort } from './merchant/http-port';
import { createMerchantClient, type MerchantClient } from './merchant/merchant-client';
import { createNodeHttpsPort } from './merchant/node-https-port';
import { createQuotaModel } from './merchant/quota-model';
import { createAccessGate, type AccessGate } from './merchant/access-gate';
import type { MerchantAccessError } from './merchant/merchant-errors';
import { createNotBeforeStore, type NotBeforeHold, type NotBeforeStore } from './merchant/not-before-store';
import type { QuotaGroup } from './merchant/quota-model';
import type { WorkerPause } from './platform/worker-loop';
import { createRequestSender } from './merchant/request-sender';
import { merchantWorkerPause } from './merchant/worker-pause';
import { createOrderActions, type OrderActions } from './orders/order-actions';
import { createOrderIntents, type OrderIntents } from './orders/order-intents';
import { createOrderOutbox, type OrderOutbox } from './orders/order-outbox';
import { createOrderTracker, type OrderTracker } from './orders/order-tracker';
import { systemClock, type Clock } from './platform/clock';
import { createPrivateFile, securePrivateFile, securePrivateFolder, sqliteFiles } from './platform/private-files';
import type { SecretStore } from './secrets/secret-store';
import { CardCipher, DataKeyMissingError } from './vault/card-cipher';
import { ensureVaultKey } from './vault/card-store';
import { createVaultReader, type VaultReader } from './vault/vault-reader';

export interface CoreDeps {
  dataDir: string;
  secrets: SecretStore;
  logger: SecretAwareLogger;
  clock?: Clock;
  /** Builds the HTTPS port, trusting `ca` only when given (a sandbox). */
  http?: (ca: string | null) => HttpPort;
  /** Real milliseconds per merchant request. */
  requestTimeoutMs?: number;
  /**
   * Clock ms a merchant call may sleep through a Retry-After before it fails with
   * MerchantNotBeforeError (default DEFAULT_MAX_WAIT_MS, one quota window); a command host may pass 30 s.
   */
  merchantMaxWaitMs?: number;
  /** Builds the webhook side for each connection; without it (or attachWebhooks) orders are tracked by polling only. */
  webhooks?: WebhookFactory;
}

/** Everything that needs the merchant: built once per connection. */
export interface MerchantServices {
  client: MerchantClient;
  intents: OrderIntents;
  outbox: OrderOutbox;
  tracker: OrderTracker;
  actions: OrderActions;
  /** Cases opened from orders, the message outbox, and polling of open cases. */
  aftersales: AftersaleService;
  /** Watched products read by detail now and then: the safety net under their product.changed webhooks. */
  watchedProducts: WatchedProductPoll;
  /**
   * A pause for a background worker that sends requests of these quota groups: while the
   * merchant refuses this key (401/403) or a stored Retry-After holds one of the groups. Pass it as the
   * worker loop's `pause` (the order outbox: ['orderCreate', 'orderRead']).
   */
  pauseFor(groups: readonly QuotaGroup[]): WorkerPause;
  /** The merchant's refusal of this connection's access (key invalid, suspended, IP denied), or null. */
  accessRefusal(): MerchantAccessError | null;
  /** The latest Retry-After hold on any of these groups (client-clock ms), or null: "try again after …". */
  notBeforeOn(groups: readonly QuotaGroup[]): NotBeforeHold | null;
  /** Starts the background workers (outbox and after-sales first recover interrupted sends); not the webhook side. */
  startWorkers(): void;
  /** Stops the webhook side (if attached) and every worker. */
  stopWorkers(): Promise<void>;
  syncCatalog(options?: { onProgress?: (progress: SyncProgress) => void; signal?: AbortSignal }): Promise<CatalogSyncSummary>;
  /** The webhook side, once attached (CoreDeps.webhooks or attachWebhooks); the tracker polls rarely while it is live. */
  readonly webhooks: WebhookService | null;
  /** Builds the webhook side from this connection's parts (a host that learns port and tunnel late, like the CLI's run). */
  attachWebhooks(factory: WebhookFactory): WebhookService;
  /** Stops and drops the webhook side (the user chose another tunnel or port); polling carries on. */
  detachWebhooks(): Promise<void>;
}

export interface Core {
  readonly db: Database;
  readonly clock: Clock;
  readonly catalog: CatalogRepository;
  readonly vault: VaultReader;
  /** Checks the credentials with GET /account, then stores them (the key in the secret store only). */
  connect(input: { baseUrl: string; userId: string; apiKey: string; caCertPem: string | null }): Promise<Account>;
  connection(): ConnectionSettings | null;
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

export async function createCore(deps: CoreDeps): Promise<Core> {
  const clock = deps.clock ?? systemClock;
  const { logger, secrets } = deps;
  const makeHttp = deps.http ?? ((ca: string | null) => createNodeHttpsPort(ca === null ? {} : { ca }));
  // Folder 0700, database and its companions 0600, on every start (platform/private-files.ts).
  securePrivateFolder(deps.dataDir);
  const databaseFile = join(deps.dataDir, DATABASE_FILE_NAME);
  createPrivateFile(databaseFile);
  for (const file of sqliteFiles(databaseFile)) securePrivateFile(file);
  const db = openDatabase(databaseFile);
  // WAL mode has just made the -wal and -shm files, if they were not there yet.
  for (const file of sqliteFiles(databaseFile)) securePrivateFile(file);
  migrate(db);
  // Only keys that cards depend on: a key that sealed nothing (say, a memory-only store's previous
  // run without orders) can be replaced without losing anything.
  const knownKeyIds = db.prepare<[], { key_id: string }>('SELECT DISTINCT key_id FROM cards ORDER BY key_id').all().map((row) => row.key_id);
  let cipher: CardCipher;
  try {
    cipher = await CardCipher.open(secrets, { knownKeyIds });
    ensureVaultKey(db, cipher, Math.floor(clock.nowMs() / 1000));
  } catch (error) {
    if (!(error instanceof DataKeyMissingError)) throw error;
    // Never a new key in its place: that would hide the loss of every stored card. Core still runs
    // (catalog, orders, the merchant), the vault refuses with DataKeyMissing until the buyer decides.
    logger.warn('vault data key missing from the secret store; the vault is locked', { store: secrets.kind, knownKeys: knownKeyIds.length });
    cipher = CardCipher.locked();
  }
  const catalog = createCatalogRepository(db, clock);
  const vault = createVaultReader({ db, cipher, now: () => Math.floor(clock.nowMs() / 1000) });
  let services: MerchantServices | null = null;

  // Retry-After holds live in the database: every process on this data folder obeys them.
  const notBefore: NotBeforeStore = createNotBeforeStore(db);

  /** A client for one key; its access gate is new, so replacing the key lifts a "key invalid" pause. */
  const buildClient = (settings: ConnectionSettings, apiKey: string): { client: MerchantClient; backgroundClient: MerchantClient; access: AccessGate } => {
    logger.registerSecret(apiKey);
    const access = createAccessGate(clock);
    const send = createRequestSender({
      baseUrl: settings.baseUrl,
      credentials: () => Promise.resolve({ userId: settings.userId, apiKey }),
      http: makeHttp(settings.caCertPem),
      quota: createQuotaModel(clock),
      clock,
      logger,
      notBefore,
      access,
      ...(deps.requestTimeoutMs === undefined ? {} : { timeoutMs: deps.requestTimeoutMs }),
      ...(deps.merchantMaxWaitMs === undefined ? {} : { maxWaitMs: deps.merchantMaxWaitMs }),
    });
    return { client: createMerchantClient(send, access), backgroundClient: createMerchantClient(send, access, 'background'), access };
  };

  const buildServices = ({ client, backgroundClient, access }: { client: MerchantClient; backgroundClient: MerchantClient; access: AccessGate }): MerchantServices => {
    let webhooks: WebhookService | null = null;
    const pauseDeps = { notBefore, access, clock, probe: () => client.getAccount() };
    // Late-bound: the webhook service is built from this tracker, and the tracker asks it how often to poll.
    const tracker = createOrderTracker({ db, client, clock, logger, cipher, webhooksLive: () => webhooks?.webhooksLive() ?? false, pause: merchantWorkerPause(pauseDeps, ['orderRead']) });
    // New orders carry the callback URL live when they are first sent (unless the caller chose one):
    // this process's receiver, or another process's (`cli run`) while its heartbeat is fresh.
    const liveCallbackUrl = (): string | null => webhooks?.callbackUrl() ?? readLiveCallbackUrl(db, clock.nowMs());
    const outbox = createOrderOutbox({
      db,
      client,
      clock,
      logger,
      cipher,
      catalog,
      liveCallbackUrl,
      onAccepted: (order) => tracker.track(order),
      // Paused while the key is refused or a Retry-After holds its groups; intents a refusal parked go on
      // by themselves once GET /account says access works (any caller's answer reaches it here).
      pause: merchantWorkerPause(pauseDeps, ['orderCreate', 'orderRead']),
      probeAccount: () => client.getAccount(),
      accessRefusal: () => access.refusal(),
    });
    access.onAccountAnswered((accessState) => outbox.accountAnswered(accessState));
    const webhooksLive = (): boolean => webhooks?.webhooksLive() ?? false;
    const aftersales = createAftersaleService({ db, client, clock, logger, orders: tracker, webhooksLive, pause: merchantWorkerPause(pauseDeps, ['aftersaleRead', 'aftersaleWrite']) });
    const watchedProducts = createWatchedProductPoll({
      watches: createProductWatchStore(db),
      client: backgroundClient,
      catalog,
      clock,
      logger,
      webhooksLive,
      pause: merchantWorkerPause(pauseDeps, ['catalog']),
    });
    const built: MerchantServices = {
      client,
      tracker,
      outbox,
      pauseFor: (groups) => merchantWorkerPause(pauseDeps, groups),
      accessRefusal: () => access.refusal(),
      notBeforeOn: (groups) => notBefore.latestOn(groups, clock.nowMs()),
      intents: createOrderIntents({ db, clock, logger }),
      actions: createOrderActions({ db, client, clock, logger, tracker }),
      aftersales,
      watchedProducts,
      startWorkers() {
        outbox.recover();
        outbox.start();
        tracker.start();
        aftersales.recover();
        aftersales.start();
        watchedProducts.start();
      },
      async stopWorkers() {
        await webhooks?.stop();
        await outbox.stop();
        await tracker.stop();
        await aftersales.stop();
        await watchedProducts.stop();
      },
      syncCatalog: (options = {}) =>
        runCatalogSync({
          repository: catalog,
          // The sync yields its quota group to anything the buyer is waiting for.
          client: backgroundClient,
          clock,
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      get webhooks() {
        return webhooks;
      },
      attachWebhooks(factory) {
        if (webhooks !== null) throw new Error('the webhook service is already attached');
        webhooks = factory({ db, clock, logger, cipher, catalog, client, tracker, secrets, pause: merchantWorkerPause(pauseDeps, ['catalog', 'orderRead', 'aftersaleRead']) });
        return webhooks;
      },
      async detachWebhooks() {
        const current = webhooks;
        webhooks = null;
        await current?.stop();
      },
    };
    if (deps.webhooks) built.attachWebhooks(deps.webhooks);
    return built;
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
      const settings: ConnectionSettings = { baseUrl: input.baseUrl.replace(/\/+$/, ''), userId: input.userId.trim(), caCertPem: input.caCertPem };
      const built = buildClient(settings, input.apiKey);
      const { data: account } = await built.client.getAccount();
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
      services = buildServices(built);
      // GET /account has just accepted this key: orders parked for a refused key (or a suspension now over) go on.
      services.outbox.keyAccepted(account.accessState);
      logger.info('connected to merchant', { baseUrl: settings.baseUrl, accountRef: account.accountRef });
      return account;
    },
    connection: () => readConnection(db),
    async merchant() {
      if (services) return services;
      const settings = readConnection(db);
      const apiKey = await readApiKey(secrets);
      if (settings === null || apiKey === null) throw new NotConnectedError();
      services = buildServices(buildClient(settings, apiKey));
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
