// The whole IPC contract on top of core, without Electron: shared by Electron main and the web host.
// handle() is the one entry: it checks the input against the contract (INVALID_INPUT, core never
// sees it), runs the channel's handler, checks the answer against the contract too (a handler bug is
// INTERNAL and logged, never a malformed answer) and never throws. onEvent() delivers the contract's
// pushed events. start()/stop() run the merchant services (outbox, tracker, webhooks when the host
// attached them or the settings name a tunnel) and the change watch while the app is connected.
import type { EventName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-result';
import type { ConnectionStatus } from '../../shared/ipc/views/connection';
import { createCatalogReader } from '../catalog/catalog-reader';
import { readApiKey, API_KEY_SECRET, describeCaCert } from '../connection/connection-settings';
import { NotConnectedError, type Core, type MerchantServices } from '../create-core';
import { createProductWatchStore } from '../webhooks/product-watch-store';
import { RedactingLogger } from '../logging/redacting-logger';
import { createAppEvents } from './app-events';
import { withMerchantInFileName } from './merchant-file-name';
import type { AppContext, AppHost, AppServiceOptions } from './app-context';
import { createAppNotices } from './app-notices';
import { createConnectionStateRelay } from './connection-state-relay';
import { readDemoFlag, readSettings, retireLocaltunnelChoice, writeDemoFlag } from './app-settings';
import { catalogHandlers } from './catalog-handlers';
import { createChangeWatch, type OrderTransition } from './change-watch';
import { productsReadByGuard } from './guard-read-notice';
import { dispatchChannel } from './channel-dispatch';
import { connectionHandlers } from './connection-handlers';
import { AppFailure } from './error-mapping';
import { webhookHandlers, webhookHealthView } from './webhook-handlers';
import type { ProfileChannelHandlers } from './handler-types';
import { createMerchantActivation } from './merchant-activation';
import { orderHandlers } from './order-handlers';
import { batchHandlers } from './batch-handlers';
import { createOrderViews } from './order-views';
import { secretStoreHandlers } from './secret-store-handlers';
import { settingsHandlers } from './settings-handlers';
import { createSyncRunner } from './sync-runner';
import { aftersaleHandlers } from './aftersale-handlers';
import { reconcileHandlers } from './reconcile-handlers';
import { spendHandlers } from './spend-handlers';
import { createAftersaleNotices } from './aftersale-notices';
import { vaultExportHandlers } from './vault-export-handlers';
import { vaultHandlers } from './vault-handlers';

export type { AppHost, AppServiceOptions } from './app-context';

export interface AppService {
  handle(channel: string, rawInput: unknown): Promise<IpcResult<unknown>>;
  onEvent(listener: (event: EventName, payload: unknown) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULT_CLIPBOARD_CLEAR_MS = 30_000;

const hostOf = (baseUrl: string | null): string | null => (baseUrl === null ? null : URL.canParse(baseUrl) ? new URL(baseUrl).host : null);
/** Real ms between looks at the webhook side's health (pushed only when it changed). */
const HEALTH_EVERY_MS = 1_000;

export function createAppService(core: Core, host: AppHost, options: AppServiceOptions = {}): AppService {
  const logger = options.logger ?? new RedactingLogger({ sink: () => undefined });
  const secrets = options.secrets ?? null;
  // Read on every status: the desktop app's store can move from memory to the passphrase file.
  const secretStoreKind = (): string => options.secretStoreKind ?? secrets?.kind ?? 'memory';
  const events = createAppEvents(logger);
  const nowSeconds = (): number => Math.floor(core.clock.nowMs() / 1000);
  const connectionState = createConnectionStateRelay(events);
  const activation = createMerchantActivation(core.db, logger, (services) => connectionState.follow(services?.connectionState ?? null), options.webhookListener);
  const notices = createAppNotices({ events, logger, db: core.db, lowBalanceFen: () => readSettings(core.db).lowBalanceFen, nowSeconds, running: () => activation.running() });
  // A finished sync read the catalog, not the balance: the balance is read after it so a crossing is seen.
  const sync = createSyncRunner(core, events, logger, () => notices.balanceMayHaveMoved());
  const scanEvery = options.changeScanIntervalMs === undefined ? {} : { intervalMs: options.changeScanIntervalMs };
  const ordersMoved = (transitions: readonly OrderTransition[]): void => {
    notices.ordersMoved(transitions);
    // The guard's product read is in the cache now: link cards, compare rows and offers show it (§15.4).
    const read = productsReadByGuard(transitions);
    if (read.length > 0) events.emit('catalog.changed', { productRefs: read });
  };
  const changeWatch = createChangeWatch({
    db: core.db,
    clock: core.clock,
    logger,
    ...scanEvery,
    onOrders: ordersMoved,
    onWatchedProducts: (changes) => notices.productsMoved(changes),
    onPricesRecorded: (refs) => notices.pricesRecorded(refs),
  });
  // After-sales changes and merchant replies, whoever stored them (webhooks, polls, the outbox).
  const aftersaleNotices = createAftersaleNotices({ db: core.db, logger, events, ...scanEvery });
  const lifecycle = { started: false, healthTimer: null as ReturnType<typeof setInterval> | null };

  const keyStored = async (): Promise<boolean> => (secrets === null ? core.connection() !== null : (await readApiKey(secrets)) !== null);

  const merchant = async (): Promise<MerchantServices> => {
    if (!(await keyStored())) throw new NotConnectedError();
    const services = await core.merchant();
    if (lifecycle.started) await activation.activate(services);
    return services;
  };

  const connectionStatus = async (): Promise<ConnectionStatus> => {
    const settings = core.connection();
    const stored = await keyStored();
    return {
      connected: settings !== null && stored,
      baseUrl: settings?.baseUrl ?? null,
      userId: settings?.userId ?? null,
      keyStored: stored,
      secretStore: secretStoreKind(),
      ...(host.usePassphraseFile !== undefined && secretStoreKind() === 'memory' ? { passphraseFileOffered: true } : {}),
      demo: settings !== null && readDemoFlag(core.db),
      caCert: settings?.caCertPem ? describeCaCert(settings.caCertPem) : null,
    };
  };

  const resumeSync = async (): Promise<void> => {
    try {
      sync.start(await merchant());
    } catch (error) {
      logger.warn('the interrupted catalog sync could not be resumed', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };

  const ctx: AppContext = {
    core,
    host,
    logger,
    events,
    secrets,
    reader: createCatalogReader(core.db),
    orderViews: createOrderViews(core.db, core.vault),
    watchStore: createProductWatchStore(core.db),
    sync,
    clipboardClearMs: options.clipboardClearMs ?? DEFAULT_CLIPBOARD_CLEAR_MS,
    exportPathChooser() {
      const choose = host.chooseExportPath?.bind(host);
      if (choose === undefined) return undefined;
      const name = options.merchantName?.() ?? null;
      const merchant = name === null ? null : { name, host: hostOf(core.connection()?.baseUrl ?? null) };
      return (suggested: string) => choose(withMerchantInFileName(suggested, merchant));
    },
    nowSeconds,
    merchant,
    activeServices: () => activation.running(),
    webhookSettingsChanged: () => activation.webhookSettingsChanged(),
    connectionStatus,
    connectionState: () => connectionState.view(),
    async connect(input, demo) {
      // Registered before anything can log it; a wrong key stays hidden too.
      logger.registerSecret(input.apiKey);
      // A running sync belongs to the previous connection (it resumes on the next catalog.sync); it
      // is stopped first so that it cannot write the old merchant's products after a switch cleared them.
      const syncWasRunning = sync.status().running;
      await sync.stop();
      let account: Awaited<ReturnType<Core['connect']>>;
      try {
        account = await core.connect(input);
      } catch (error) {
        // Refused (a wrong key, an address that does not answer): the connection in use is unchanged,
        // so the sync this attempt stopped goes on where it was.
        if (syncWasRunning) await resumeSync();
        throw error;
      }
      writeDemoFlag(core.db, demo, nowSeconds());
      // core.connect stopped the previous services and built new ones.
      activation.forget();
      if (lifecycle.started) await activation.activate(await core.merchant());
      events.emit('connection.changed', await connectionStatus());
      // A buyer who just connected expects to see the catalog: the first sync (or one a crash
      // interrupted) starts by itself; later ones are the buyer's or the schedule's to start.
      const lastSync = core.catalog.readSyncState();
      if (lastSync === null || lastSync.finishedAt === null) sync.start(await core.merchant());
      return notices.accountSeen(account);
    },
    async disconnect() {
      if (secrets === null) throw new AppFailure('INTERNAL', 'this host gave the app no secret store, so the key cannot be cleared here');
      await sync.stop();
      await activation.deactivate();
      await secrets.delete(API_KEY_SECRET);
      const status = await connectionStatus();
      events.emit('connection.changed', status);
      return status;
    },
    accountSeen: (account) => notices.accountSeen(account),
    changed: () => changeWatch.poke(),
  };

  const handlers = allChannelHandlers(ctx);
  const pushHealth = webhookHealthPusher(ctx);

  return {
    handle: (channel, rawInput) => dispatchChannel(handlers, logger, channel, rawInput),

    onEvent: (listener) => events.on(listener),

    async start() {
      if (lifecycle.started) return;
      lifecycle.started = true;
      if (retireLocaltunnelChoice(core.db, nowSeconds())) logger.warn('the stored localtunnel webhook choice is no longer offered; orders are tracked by polling until another is chosen');
      changeWatch.start();
      aftersaleNotices.start();
      try {
        if (core.connection() !== null && (await keyStored())) await activation.activate(await core.merchant());
      } catch (error) {
        logger.warn('could not start the merchant services', { error: error instanceof Error ? error.message : 'unknown' });
      }
      events.emit('connection.changed', await connectionStatus());
      pushHealth();
      lifecycle.healthTimer = setInterval(pushHealth, HEALTH_EVERY_MS);
      lifecycle.healthTimer.unref();
    },

    async stop() {
      if (!lifecycle.started) return;
      lifecycle.started = false;
      changeWatch.stop();
      aftersaleNotices.stop();
      if (lifecycle.healthTimer !== null) clearInterval(lifecycle.healthTimer);
      lifecycle.healthTimer = null;
      notices.stop();
      await sync.stop();
      await activation.deactivate();
    },
  };
}

/** Every channel of the contract, each domain's handlers over the one context. */
function allChannelHandlers(ctx: AppContext): ProfileChannelHandlers {
  return {
    ...connectionHandlers(ctx),
    ...catalogHandlers(ctx),
    ...orderHandlers(ctx),
    ...batchHandlers(ctx),
    ...vaultHandlers(ctx),
    ...vaultExportHandlers(ctx),
    ...aftersaleHandlers(ctx),
    ...settingsHandlers(ctx),
    ...reconcileHandlers(ctx),
    ...secretStoreHandlers(ctx),
    ...webhookHandlers(ctx),
    ...spendHandlers(ctx),
  };
}

/** Pushes the webhook side's health when it changed since the last push. */
function webhookHealthPusher(ctx: AppContext): () => void {
  let lastHealth = '';
  return () => {
    try {
      const health = webhookHealthView(ctx);
      const text = JSON.stringify(health);
      if (text === lastHealth) return;
      lastHealth = text;
      ctx.events.emit('events.health', health);
    } catch (error) {
      ctx.logger.warn('events health could not be read', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };
}
