// The whole IPC contract on top of core, without Electron: shared by Electron main and the web host.
// handle() is the one entry: it checks the input against the contract (INVALID_INPUT, core never
// sees it), runs the channel's handler, checks the answer against the contract too (a handler bug is
// INTERNAL and logged, never a malformed answer) and never throws. onEvent() delivers the contract's
// pushed events. start()/stop() run the merchant services (outbox, tracker, webhooks when the host
// attached them or the settings name a tunnel) and the change watch while the app is connected.
import { CHANNELS, isChannelName, type EventName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-result';
import type { AccountView, ConnectionStatus } from '../../shared/ipc/views/connection';
import type { NotificationView } from '../../shared/ipc/views/notifications';
import type { Account } from '../../shared/merchant/account';
import { notificationText, type NotificationFacts } from '../../shared/notification-text';
import { createCatalogReader } from '../catalog/catalog-reader';
import { readApiKey, API_KEY_SECRET } from '../connection/connection-settings';
import { NotConnectedError, type Core, type MerchantServices } from '../create-core';
import { webhookFactoryFromSettings } from '../webhooks/webhook-from-settings';
import { createProductWatchStore } from '../webhooks/product-watch-store';
import { RedactingLogger } from '../logging/redacting-logger';
import { createAppEvents } from './app-events';
import type { AppContext, AppHost, AppServiceOptions } from './app-context';
import { readDemoFlag, readSettings, retireLocaltunnelChoice, writeDemoFlag } from './app-settings';
import { catalogHandlers } from './catalog-handlers';
import { createChangeWatch, type OrderTransition, type WatchedProductChange } from './change-watch';
import { connectionHandlers } from './connection-handlers';
import { AppFailure, INTERNAL_MESSAGE, toIpcError } from './error-mapping';
import { webhookHandlers, webhookHealthView } from './webhook-handlers';
import type { ChannelHandlers } from './handler-types';
import { orderHandlers } from './order-handlers';
import { createOrderViews } from './order-views';
import { secretStoreHandlers } from './secret-store-handlers';
import { settingsHandlers } from './settings-handlers';
import { createSyncRunner } from './sync-runner';
import { aftersaleHandlers } from './aftersale-handlers';
import { createAftersaleNotices } from './aftersale-notices';
import { vaultExportHandlers } from './vault-export-handlers';
import { vaultHandlers } from './vault-handlers';
import { toAccountView } from './view-mapping';

export type { AppHost, AppServiceOptions } from './app-context';

export interface AppService {
  handle(channel: string, rawInput: unknown): Promise<IpcResult<unknown>>;
  onEvent(listener: (event: EventName, payload: unknown) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULT_LOW_BALANCE_FEN = 100_00;
const DEFAULT_CLIPBOARD_CLEAR_MS = 30_000;
/** Real ms to gather order changes before the balance is read again. */
const ACCOUNT_REFRESH_DELAY_MS = 1_000;
/** Real ms between looks at the webhook side's health (pushed only when it changed). */
const HEALTH_EVERY_MS = 1_000;

export function createAppService(core: Core, host: AppHost, options: AppServiceOptions = {}): AppService {
  const logger = options.logger ?? new RedactingLogger({ sink: () => undefined });
  const secrets = options.secrets ?? null;
  // Read on every status: the desktop app's store can move from memory to the passphrase file.
  const secretStoreKind = (): string => options.secretStoreKind ?? secrets?.kind ?? 'memory';
  const lowBalanceFen = options.lowBalanceFen ?? DEFAULT_LOW_BALANCE_FEN;
  const events = createAppEvents(logger);
  const sync = createSyncRunner(core, events, logger);
  const nowSeconds = (): number => Math.floor(core.clock.nowMs() / 1000);

  let started = false;
  /** The services whose workers this app started (null: none running). */
  let running: MerchantServices | null = null;
  let balanceLow = false;
  let accountTimer: ReturnType<typeof setTimeout> | null = null;
  let healthTimer: ReturnType<typeof setInterval> | null = null;
  let lastHealth = '';

  /** Facts in, the English wording added (displays word it again in the buyer's language). */
  const notify = (facts: NotificationFacts & Omit<NotificationView, 'title' | 'body'>): void => events.emit('app.notification', { ...facts, ...notificationText(facts, 'en') });

  const keyStored = async (): Promise<boolean> => (secrets === null ? core.connection() !== null : (await readApiKey(secrets)) !== null);

  const deactivate = async (): Promise<void> => {
    const current = running;
    running = null;
    if (current === null) return;
    await current.stopWorkers();
  };

  const activate = async (services: MerchantServices): Promise<void> => {
    if (running === services) return;
    await deactivate();
    running = services;
    services.startWorkers();
    await startWebhooks(services);
  };

  /** The webhook side the user chose in the settings (unless the host attached its own), started. */
  const startWebhooks = async (services: MerchantServices): Promise<void> => {
    if (services.webhooks === null) {
      try {
        const factory = webhookFactoryFromSettings(readSettings(core.db));
        if (factory !== null) services.attachWebhooks(factory);
      } catch (error) {
        logger.warn('the webhook tunnel in the settings cannot be used; orders are tracked by polling', { error: error instanceof Error ? error.message : 'unknown' });
      }
    }
    if (services.webhooks !== null) {
      try {
        await services.webhooks.start();
      } catch (error) {
        // Webhooks are an optimisation: polling carries on without them, and the health says why.
        logger.warn('webhooks could not start; orders are tracked by polling', { error: error instanceof Error ? error.message : 'unknown' });
      }
    }
  };

  /** The buyer picked another tunnel or port: the running webhook side is replaced at once. */
  const webhookSettingsChanged = async (): Promise<void> => {
    const services = running;
    if (services === null) return;
    await services.detachWebhooks();
    await startWebhooks(services);
  };

  const merchant = async (): Promise<MerchantServices> => {
    if (!(await keyStored())) throw new NotConnectedError();
    const services = await core.merchant();
    if (started) await activate(services);
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
    };
  };

  const accountSeen = (account: Account): AccountView => {
    const view = toAccountView(account);
    events.emit('account.changed', view);
    const low = view.balanceFen < lowBalanceFen;
    if (low && !balanceLow) {
      notify({ kind: 'lowBalance', balanceFen: view.balanceFen, currency: view.currency });
    }
    balanceLow = low;
    return view;
  };

  const refreshAccountSoon = (): void => {
    if (accountTimer !== null || running === null) return;
    accountTimer = setTimeout(() => {
      accountTimer = null;
      const services = running;
      if (services === null) return;
      services.client.getAccount().then(
        ({ data }) => void accountSeen(data),
        (error: unknown) => logger.info('balance refresh failed', { error: error instanceof Error ? error.message : 'unknown' }),
      );
    }, ACCOUNT_REFRESH_DELAY_MS);
    accountTimer.unref();
  };

  const ordersMoved = (transitions: readonly OrderTransition[]): void => {
    events.emit('orders.changed', { clientOrderRefs: transitions.map((t) => t.clientOrderRef) });
    let moneyMoved = false;
    for (const t of transitions) {
      // Accepted orders are charged; rejected ones may say the balance ran out: either way read it again.
      if (t.intentStatus !== t.previousIntentStatus && (t.intentStatus === 'accepted' || t.intentStatus === 'rejected')) moneyMoved = true;
      if (t.state !== t.previousState) {
        moneyMoved = true;
        if (t.state === 'completed') notify({ kind: 'orderCompleted', productName: t.productName, platformOrderRef: t.platformOrderRef, clientOrderRef: t.clientOrderRef });
        if (t.state === 'failed') notify({ kind: 'orderFailed', productName: t.productName, platformOrderRef: t.platformOrderRef, clientOrderRef: t.clientOrderRef });
      }
      if (t.previousCards === 0 && t.cards > 0) {
        notify({ kind: 'credentialsReady', productName: t.productName, platformOrderRef: t.platformOrderRef, cards: t.cards, clientOrderRef: t.clientOrderRef });
      }
    }
    if (moneyMoved) refreshAccountSoon();
  };

  const productsMoved = (changes: readonly WatchedProductChange[]): void => {
    events.emit('catalog.changed', { productRefs: changes.map((c) => c.productRef) });
    for (const c of changes) {
      if (!c.notable) continue;
      const priceMoved = c.priceFromFen !== c.previousPriceFromFen && c.priceFromFen !== null;
      notify({ kind: 'productChanged', productName: c.name, productRef: c.productRef, ...(priceMoved ? { priceFromFen: c.priceFromFen } : {}) });
    }
  };

  const changeWatch = createChangeWatch({
    db: core.db,
    clock: core.clock,
    logger,
    ...(options.changeScanIntervalMs === undefined ? {} : { intervalMs: options.changeScanIntervalMs }),
    onOrders: ordersMoved,
    onWatchedProducts: productsMoved,
  });
  // After-sales changes and merchant replies, whoever stored them (webhooks, polls, the outbox).
  const aftersaleNotices = createAftersaleNotices({
    db: core.db,
    logger,
    events,
    ...(options.changeScanIntervalMs === undefined ? {} : { intervalMs: options.changeScanIntervalMs }),
  });

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
    nowSeconds,
    merchant,
    activeServices: () => running,
    webhookSettingsChanged,
    connectionStatus,
    async connect(input, demo) {
      // Registered before anything can log it; a wrong key stays hidden too.
      logger.registerSecret(input.apiKey);
      // A running sync belongs to the previous connection (it resumes on the next catalog.sync); it
      // is stopped first so that it cannot write the old merchant's products after a switch cleared them.
      await sync.stop();
      const account = await core.connect(input);
      writeDemoFlag(core.db, demo, nowSeconds());
      // core.connect stopped the previous services and built new ones.
      running = null;
      if (started) await activate(await core.merchant());
      events.emit('connection.changed', await connectionStatus());
      // A buyer who just connected expects to see the catalog: the first sync (or one a crash
      // interrupted) starts by itself; later ones are the buyer's or the schedule's to start.
      const lastSync = core.catalog.readSyncState();
      if (lastSync === null || lastSync.finishedAt === null) sync.start(await core.merchant());
      return accountSeen(account);
    },
    async disconnect() {
      if (secrets === null) throw new AppFailure('INTERNAL', 'this host gave the app no secret store, so the key cannot be cleared here');
      await sync.stop();
      await deactivate();
      await secrets.delete(API_KEY_SECRET);
      const status = await connectionStatus();
      events.emit('connection.changed', status);
      return status;
    },
    accountSeen,
    changed: () => changeWatch.poke(),
  };

  const handlers: ChannelHandlers = {
    ...connectionHandlers(ctx),
    ...catalogHandlers(ctx),
    ...orderHandlers(ctx),
    ...vaultHandlers(ctx),
    ...vaultExportHandlers(ctx),
    ...aftersaleHandlers(ctx),
    ...settingsHandlers(ctx),
    ...secretStoreHandlers(ctx),
    ...webhookHandlers(ctx),
  };

  const pushHealth = (): void => {
    try {
      const health = webhookHealthView(ctx);
      const text = JSON.stringify(health);
      if (text === lastHealth) return;
      lastHealth = text;
      events.emit('events.health', health);
    } catch (error) {
      logger.warn('events health could not be read', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };

  return {
    async handle(channel, rawInput) {
      if (!isChannelName(channel)) return { ok: false, error: { code: 'INVALID_INPUT', message: 'no such channel' } };
      const spec = CHANNELS[channel];
      const input = spec.input.safeParse(rawInput);
      if (!input.success) {
        return {
          ok: false,
          error: {
            code: 'INVALID_INPUT',
            message: `the request for ${channel} does not match the contract`,
            fields: input.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: logger.redact(issue.message) })),
          },
        };
      }
      let value: unknown;
      try {
        // The map is complete and keyed by channel (ChannelHandlers), so this handler takes this input.
        const handler = handlers[channel] as (input: unknown) => unknown;
        value = await handler(input.data);
      } catch (error) {
        return { ok: false, error: toIpcError(error, logger, channel) };
      }
      const output = spec.output.safeParse(value);
      if (!output.success) {
        logger.error('handler answer does not match the contract', { channel, issues: output.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`) });
        return { ok: false, error: { code: 'INTERNAL', message: INTERNAL_MESSAGE } };
      }
      return { ok: true, value: output.data };
    },

    onEvent: (listener) => events.on(listener),

    async start() {
      if (started) return;
      started = true;
      if (retireLocaltunnelChoice(core.db, nowSeconds())) logger.warn('the stored localtunnel webhook choice is no longer offered; orders are tracked by polling until another is chosen');
      changeWatch.start();
      aftersaleNotices.start();
      try {
        if (core.connection() !== null && (await keyStored())) await activate(await core.merchant());
      } catch (error) {
        logger.warn('could not start the merchant services', { error: error instanceof Error ? error.message : 'unknown' });
      }
      events.emit('connection.changed', await connectionStatus());
      pushHealth();
      healthTimer = setInterval(pushHealth, HEALTH_EVERY_MS);
      healthTimer.unref();
    },

    async stop() {
      if (!started) return;
      started = false;
      changeWatch.stop();
      aftersaleNotices.stop();
      if (healthTimer !== null) clearInterval(healthTimer);
      healthTimer = null;
      if (accountTimer !== null) clearTimeout(accountTimer);
      accountTimer = null;
      await sync.stop();
      await deactivate();
    },
  };
}
