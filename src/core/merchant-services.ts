// The merchant services of one connection: the clients for its key, and the order, after-sales and
// watched-product workers built on them (create-core.ts builds them once per connection). The webhook
// side is attached by the host's factory (CoreDeps.webhooks or attachWebhooks).
import type { Database } from 'better-sqlite3';
import { createAftersaleService, type AftersaleService } from './aftersales/aftersale-service';
import { recordBalance, type BalanceOwner } from './books/balance-history';
import { createReconciliation, type Reconciliation } from './books/reconciliation';
import type { Account } from '../shared/merchant/account';
import type { TemplateScope } from '../shared/ipc/views/catalog';
import type { CatalogRepository } from './catalog/catalog-repository';
import { runCatalogSync, type CatalogSyncSummary, type SyncProgress } from './catalog/catalog-sync';
import type { ConnectionSettings } from './connection/connection-settings';
import type { ConnectionStateMachine } from './connection/connection-state';
import { createHealthWatch, type HealthWatch } from './connection/health-watch';
import { createReachProbe } from './connection/reach-probe';
import type { SecretAwareLogger } from './logging/logger';
import { createAccessGate, type AccessGate } from './merchant/access-gate';
import type { HttpPort } from './merchant/http-port';
import { createMerchantClient, type MerchantClient } from './merchant/merchant-client';
import type { MerchantAccessError } from './merchant/merchant-errors';
import type { NotBeforeHold, NotBeforeStore } from './merchant/not-before-store';
import { createQuotaModel, type QuotaGroup } from './merchant/quota-model';
import { CALLER_PRIORITY, type MerchantCaller } from './merchant/request-priority';
import { createRequestSender } from './merchant/request-sender';
import { DEFAULT_RETRY_POLICY } from './merchant/retry-policy';
import { merchantWorkerPause } from './merchant/worker-pause';
import { createOrderActions, type OrderActions } from './orders/order-actions';
import { createOrderIntents, type OrderIntents } from './orders/order-intents';
import { createOrderOutbox, type OrderOutbox } from './orders/order-outbox';
import { createOrderPlacement, type OrderPlacement } from './orders/order-placement';
import { createTemplateSource, type TemplateSource } from './orders/template-source';
import { holdsBackWork } from './connection/connection-state';
import { createOrderTracker, type OrderTracker } from './orders/order-tracker';
import type { Clock } from './platform/clock';
import type { WorkerPause } from './platform/worker-loop';
import type { SecretStore } from './secrets/secret-store';
import type { CardCipher } from './vault/card-cipher';
import { createProductWatchStore } from './webhooks/product-watch-store';
import { createWatchedProductPoll, type WatchedProductPoll } from './webhooks/watched-product-poll';
import type { WebhookFactory, WebhookService } from './webhooks/webhook-service';
import { readLiveCallbackUrl } from './webhooks/webhook-settings';

/** Everything that needs the merchant: built once per connection. */
export interface MerchantServices {
  client: MerchantClient;
  intents: OrderIntents;
  /** The one source of purchase templates: trusted by revision, fetched on demand as the buyer's request. */
  templates: TemplateSource;
  /** The order form's template and placing an order with it (needs_template while the merchant is away). */
  placement: OrderPlacement;
  outbox: OrderOutbox;
  tracker: OrderTracker;
  actions: OrderActions;
  /** Cases opened from orders, the message outbox, and polling of open cases. */
  aftersales: AftersaleService;
  /** Watched products read by detail now and then: the safety net under their product.changed webhooks. */
  watchedProducts: WatchedProductPoll;
  /** The books' reconciliation of this merchant's orders and balance (contract §12.2). */
  reconciliation: Reconciliation;
  /**
   * A pause for a background worker that sends requests of these quota groups: while the
   * merchant refuses this key (401/403) or a stored Retry-After holds one of the groups. Pass it as the
   * worker loop's `pause` (the order outbox: ['orderCreate', 'orderRead']).
   */
  pauseFor(groups: readonly QuotaGroup[]): WorkerPause;
  /** The merchant's refusal of this connection's access (key invalid, suspended, IP denied), or null. */
  accessRefusal(): MerchantAccessError | null;
  /** The one connection state machine of this connection (connection/connection-state.ts), fed by every answer. */
  readonly connectionState: ConnectionStateMachine;
  /** Asks the merchant now and then while a window shows the header (connection/health-watch.ts). */
  readonly health: HealthWatch;
  /** The latest Retry-After hold on any of these groups (client-clock ms), or null: "try again after …". */
  notBeforeOn(groups: readonly QuotaGroup[]): NotBeforeHold | null;
  /** Starts the background workers (outbox and after-sales first recover interrupted sends); not the webhook side. */
  startWorkers(): void;
  /** Stops the webhook side (if attached) and every worker. */
  stopWorkers(): Promise<void>;
  /** `templates` defaults to 'wanted'; `focus` names the category the buyer is looking at (its details go first). */
  syncCatalog(options?: { onProgress?: (progress: SyncProgress) => void; signal?: AbortSignal; templates?: TemplateScope; focus?: () => number | null }): Promise<CatalogSyncSummary>;
  /** The webhook side, once attached (CoreDeps.webhooks or attachWebhooks); the tracker polls rarely while it is live. */
  readonly webhooks: WebhookService | null;
  /** Builds the webhook side from this connection's parts (a host that learns port and tunnel late, like the CLI's run). */
  attachWebhooks(factory: WebhookFactory): WebhookService;
  /** Stops and drops the webhook side (the user chose another tunnel or port); polling carries on. */
  detachWebhooks(): Promise<void>;
}

/** What core has open that every connection's services share. */
export interface ServiceParts {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly cipher: CardCipher;
  readonly catalog: CatalogRepository;
  readonly secrets: SecretStore;
  /** Retry-After holds live in the database: every process on this data folder obeys them. */
  readonly notBefore: NotBeforeStore;
  /** Builds the HTTPS port, trusting `ca` only when given (a sandbox). */
  readonly makeHttp: (ca: string | null) => HttpPort;
  readonly requestTimeoutMs?: number;
  /** Real ms the connect probe waits for GET /account; default CONNECT_PROBE_TIMEOUT_MS. */
  readonly connectProbeTimeoutMs?: number;
  readonly merchantMaxWaitMs?: number;
  /** The host's webhook side, attached to every connection's services. */
  readonly webhooks?: WebhookFactory;
}

/** The clients of one key: one per caller (its quota priority from request-priority.ts), and their access gate. */
export interface MerchantClients {
  /** The buyer's: clientFor('buyer'). */
  readonly client: MerchantClient;
  /** The client of one caller: background callers yield the quota to the buyer and leave a reserve. */
  readonly clientFor: (caller: MerchantCaller) => MerchantClient;
  /**
   * The connect test (GET /account before this connection ever worked): sent once, never retried,
   * with a short timeout and no wait for a Retry-After, so a wrong address, port or certificate is
   * named at once instead of after minutes of backoff (nothing is queued behind it to protect).
   */
  readonly probeClient: MerchantClient;
  /**
   * The health watch's GET /account: one attempt (the next probe is the retry), the normal timeout
   * (a slow answer must be seen as slow, not as a timeout), background quota, never waiting for a hold.
   */
  readonly healthClient: MerchantClient;
  readonly access: AccessGate;
  /** Whose books these are: the merchant's address and the user ID. */
  readonly owner: BalanceOwner;
}

/** How long the connect probe waits for an answer: a merchant answers GET /account in well under this. */
export const CONNECT_PROBE_TIMEOUT_MS = 5_000;
/** One attempt: the probe's failure is the answer the buyer waits for (see probeClient). */
const PROBE_RETRY_POLICY = { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 };

/** A client for one key; its access gate is new, so replacing the key lifts a "key invalid" pause. */
export function buildMerchantClients(parts: ServiceParts, settings: ConnectionSettings, apiKey: string): MerchantClients {
  const { clock, logger, notBefore } = parts;
  logger.registerSecret(apiKey);
  const access = createAccessGate(clock);
  // One transport and one quota for both senders: the probe's connection is reused, its request counted.
  const common = {
    baseUrl: settings.baseUrl,
    credentials: () => Promise.resolve({ userId: settings.userId, apiKey }),
    http: parts.makeHttp(settings.caCertPem),
    quota: createQuotaModel(clock),
    clock,
    logger,
    notBefore,
    access,
  };
  const send = createRequestSender({
    ...common,
    ...(parts.requestTimeoutMs === undefined ? {} : { timeoutMs: parts.requestTimeoutMs }),
    ...(parts.merchantMaxWaitMs === undefined ? {} : { maxWaitMs: parts.merchantMaxWaitMs }),
  });
  const probe = createRequestSender({ ...common, retry: PROBE_RETRY_POLICY, timeoutMs: parts.connectProbeTimeoutMs ?? CONNECT_PROBE_TIMEOUT_MS, maxWaitMs: 0 });
  const health = createRequestSender({ ...common, retry: PROBE_RETRY_POLICY, maxWaitMs: 0, ...(parts.requestTimeoutMs === undefined ? {} : { timeoutMs: parts.requestTimeoutMs }) });
  // Every balance any caller hears is history the books read (balance-history.ts); a failure to
  // write it is logged and never fails the request that carried it.
  const owner = { baseUrl: settings.baseUrl, userId: settings.userId };
  const observeAccount = (account: Account, requestId: string | null): void => {
    try {
      recordBalance(parts.db, owner, { accountRef: account.accountRef, balanceFen: account.balance, currency: account.currency, requestId }, clock.nowMs());
    } catch (error) {
      logger.warn('balance history not recorded', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };
  const clients = new Map<MerchantCaller, MerchantClient>();
  const clientFor = (caller: MerchantCaller): MerchantClient => {
    const known = clients.get(caller);
    if (known) return known;
    const built = createMerchantClient(send, access, CALLER_PRIORITY[caller], observeAccount);
    clients.set(caller, built);
    return built;
  };
  return {
    client: clientFor('buyer'),
    clientFor,
    // The connect test is the buyer's: they wait for its answer.
    probeClient: createMerchantClient(probe, access, CALLER_PRIORITY.buyer, observeAccount),
    healthClient: createMerchantClient(health, access, CALLER_PRIORITY.workerProbe, observeAccount),
    access,
    owner,
  };
}

/** The services of one connection, not started; the host's webhook factory (if any) attached. */
export function buildMerchantServices(parts: ServiceParts, { client, clientFor, healthClient, access, owner }: MerchantClients): MerchantServices {
  const { db, clock, logger, cipher, catalog, secrets, notBefore } = parts;
  let webhooks: WebhookService | null = null;
  // One probe for every worker while the merchant is unreachable or struggling.
  const workerProbe = clientFor('workerProbe');
  const reach = createReachProbe(access.connection, clock);
  const pauseDeps = { notBefore, access, clock, probe: () => workerProbe.getAccount(), reach };
  const health = createHealthWatch({ connection: access.connection, reach, clock, probe: (signal) => healthClient.getAccount(signal) });
  // Late-bound: the webhook service is built from this tracker, and the tracker asks it how often to poll.
  const tracker = createOrderTracker({
    db,
    client,
    pollClient: clientFor('orderPoll'),
    clock,
    logger,
    cipher,
    webhooksLive: () => webhooks?.webhooksLive() ?? false,
    // Orders placed with an earlier callback address never get webhooks here: polled normally.
    currentCallbackUrl: () => webhooks?.callbackUrl() ?? null,
    pause: merchantWorkerPause(pauseDeps, ['orderRead']) });
  // New orders carry the callback URL live when they are first sent (unless the caller chose one):
  // this process's receiver, or another process's (`cli run`) while its heartbeat is fresh.
  const liveCallbackUrl = (): string | null => webhooks?.callbackUrl() ?? readLiveCallbackUrl(db, clock.nowMs());
  // The buyer's client: a template is fetched because someone is ordering (or an order waits for it).
  const templates = createTemplateSource({ db, client, catalog, logger });
  const intents = createOrderIntents({ db, clock, logger });
  const placement = createOrderPlacement({ templates, intents, logger, reachable: () => !holdsBackWork(access.connection.view()) });
  const outbox = createOrderOutbox({
    db,
    client,
    templates,
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
  const aftersales = createAftersaleService({ db, client, pollClient: clientFor('casePoll'), clock, logger, orders: tracker, webhooksLive, pause: merchantWorkerPause(pauseDeps, ['aftersaleRead', 'aftersaleWrite']) });
  const watchedProducts = createWatchedProductPoll({
    watches: createProductWatchStore(db),
    client: clientFor('watchedPoll'),
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
    connectionState: access.connection,
    health,
    notBeforeOn: (groups) => notBefore.latestOn(groups, clock.nowMs()),
    intents,
    templates,
    placement,
    actions: createOrderActions({ db, client, clock, logger, tracker }),
    aftersales,
    watchedProducts,
    reconciliation: createReconciliation({ db, clock, logger, owner, listClient: clientFor('reconcile'), accountClient: client }),
    startWorkers() {
      outbox.recover();
      outbox.start();
      tracker.start();
      aftersales.recover();
      aftersales.start();
      watchedProducts.start();
      health.start();
    },
    async stopWorkers() {
      await webhooks?.stop();
      await outbox.stop();
      await tracker.stop();
      await aftersales.stop();
      await watchedProducts.stop();
      await health.stop();
    },
    syncCatalog: (options = {}) =>
      runCatalogSync({
        repository: catalog,
        // The sync yields the quota to anything the buyer is waiting for.
        client: clientFor('catalogSync'),
        clock,
        templates: options.templates ?? 'wanted',
        ...(options.focus ? { focus: options.focus } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    get webhooks() {
      return webhooks;
    },
    attachWebhooks(factory) {
      if (webhooks !== null) throw new Error('the webhook service is already attached');
      // Webhook events are hints nobody waits on: their re-checks and the catch-up yield to the buyer.
      const webhookTracker: OrderTracker = { ...tracker, refresh: (ref) => tracker.recheck(ref) };
      webhooks = factory({ db, clock, logger, cipher, catalog, client: clientFor('webhookSide'), tracker: webhookTracker, secrets, pause: merchantWorkerPause(pauseDeps, ['catalog', 'orderRead', 'aftersaleRead']) });
      return webhooks;
    },
    async detachWebhooks() {
      const current = webhooks;
      webhooks = null;
      await current?.stop();
    },
  };
  if (parts.webhooks) built.attachWebhooks(parts.webhooks);
  return built;
}
