// The webhook side composed (interface v1 §6.1): the local receiver and its inbox
// processor, a tunnel that makes the receiver reachable, the watched products' subscriptions, the
// catch-up after anything may have been lost, and the health record the UI shows.
//
// Why it looks like this:
// - The callback URL is the tunnel's public base URL + the receiver's secret path. It exists only
//   while both are up; it is published (settings, with a heartbeat) for orders created by other
//   processes, and withdrawn when either goes down or the merchant refuses it (422114).
// - Every time a URL comes up (start, tunnel back or with a new URL, token rotation) all watched
//   products are subscribed again with it and then a catch-up reads what may have been missed:
//   while nothing reached us, the merchant's three sends failed and a product's subscription was
//   cancelled with them (interface v1 §6.4.6–8). Subscribing first means nothing falls between the two.
// - webhooksLive() says whether polling may be rare: only while receiver and tunnel are up, the
//   merchant has not refused the URL, and either an event arrived recently or a probe sent through
//   the public URL came back to this receiver. Otherwise the tracker polls at its normal pace, and
//   when the path goes down every order that still moves is pulled in to be polled soon.
// - A probe that fails while the tunnel says it is up (a user-run proxy down, a tunnel that stopped
//   forwarding) counts as the path going down; when a later probe comes back, the same re-subscribe
//   and catch-up run as for a tunnel that came back, since the sends in between failed as well.
// - One worker loop does the timed work (heartbeat, subscription renewals and retries, catch-up
//   retries, path probes), so nothing here runs every second: it sleeps until the next due item.
//
// The pieces: webhook-side.ts (the parts and all mutable state, in one object), webhook-path.ts (the
// callback URL, its probe, liveness), webhook-worker.ts (the timed work); this file builds the parts,
// starts and stops them, and reports the health.
import type { Database } from 'better-sqlite3';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import type { OrderTracker } from '../orders/order-tracker';
import type { Clock } from '../platform/clock';
import type { SecretStore } from '../secrets/secret-store';
import type { CardCipher } from '../vault/card-cipher';
import type { WorkerPause } from '../platform/worker-loop';
import { isCallbackToken } from './callback-token';
import type { CatchUpReport } from './catch-up';
import { createInboxProcessor, type InboxProcessor } from './inbox-processor';
import { createProductWatch } from './product-watch';
import type { WatchedProduct } from './product-watch-store';
import type { Tunnel } from './tunnels/tunnel';
import type { WebhookHealth } from './webhook-health';
import { pullInPolling, setUrl, urlFromStatus, usableUrl, webhooksLiveNow, withdrawUrl } from './webhook-path';
import type { WebhookListener } from './webhook-listener';
import { createWebhookReceiver, type WebhookReceiver } from './webhook-receiver';
import { LIVE_URL_HEARTBEAT_MS, readCallbackToken, readLastReceiverPort, writeCallbackToken, writeLastReceiverPort } from './webhook-settings';
import type { WebhookSide } from './webhook-side';
import { runCatchUpOnce, runWorker } from './webhook-worker';

/** What core hands to a webhook factory (create-core.ts). */
export interface WebhookParts {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly cipher: CardCipher;
  readonly catalog: CatalogRepository;
  readonly client: MerchantClient;
  readonly tracker: OrderTracker;
  /** For a tunnel's own secret (the ngrok authtoken). */
  readonly secrets: SecretStore;
  /** The merchant's refusals and Retry-After holds: the inbox processor waits them out. */
  readonly pause?: WorkerPause;
  /** One listener for every profile's receiver (contract §15.3); none = the receiver listens itself. */
  readonly listener?: WebhookListener;
}

/** Builds the webhook side from core's parts; the host decides port and tunnel. */
export type WebhookFactory = (parts: WebhookParts) => WebhookService;

export interface WebhookServiceOptions extends WebhookParts {
  /**
   * One tunnel per webhook side, also when the listener is shared: it forwards the listener's port, and
   * the callback URL is its public base + this side's own /hooks/<token> path. Sharing it is not needed
   * for isolation (the token routes, not the tunnel) and a tunnel of its own keeps "tunnel down or with
   * a new URL → re-subscribe and catch up" this side's business; the cost is one provider session per
   * profile (a provider that allows only one, e.g. a free ngrok plan, leaves the others polling).
   */
  readonly tunnel: Tunnel;
  /** The receiver's port on 127.0.0.1; 0 (default) = a free one. Not used with `listener` (the listener's). */
  readonly port?: number;
  /** Receiver limits (real ms, bytes); the receiver's defaults otherwise. */
  readonly receiver?: { readonly maxBodyBytes?: number; readonly headersTimeoutMs?: number; readonly requestTimeoutMs?: number };
  /** An event or a verified path keeps webhooks live this long (core clock ms). */
  readonly liveWindowMs?: number;
  /** Without events, the path is probed again this often (core clock ms). */
  readonly verifyEveryMs?: number;
  readonly heartbeatMs?: number;
  /** Products per subscription call (at most 100). */
  readonly subscriptionBatchSize?: number;
  readonly catchUpConcurrency?: number;
  /** Called after the processor finished an inbox event (UI notifications, tests). */
  readonly onProcessed?: (eventId: string, eventType: string, outcome: string) => void;
  /** Called after each catch-up run. */
  readonly onCatchUp?: (report: CatchUpReport) => void;
}

export interface WebhookService {
  /** Receiver, tunnel, processor and the worker; resolves with the callback URL given to the merchant. */
  start(): Promise<{ callbackUrl: string }>;
  stop(): Promise<void>;
  health(): WebhookHealth;
  /** The live callback URL for new orders; null while there is none or the merchant refused it. */
  callbackUrl(): string | null;
  /** Starts watching products (subscribed soon with the live URL); returns the refs that are new. */
  watch(productRefs: readonly number[]): number[];
  unwatch(productRefs: readonly number[]): Promise<number[]>;
  watched(): WatchedProduct[];
  /** Whether webhooks are being received (the tracker then polls rarely). */
  webhooksLive(): boolean;
  /** A new secret path: the old URL stops working at once, subscriptions move to the new one. */
  rotateToken(): string | null;
  /** Runs the catch-up now (after the pending subscriptions) and resolves with its report. */
  catchUpNow(): Promise<CatchUpReport>;
  /** Resolves once nothing is due now: subscriptions sent, catch-up done (or waiting to retry). */
  settled(): Promise<void>;
}

const DEFAULT_LIVE_WINDOW_MS = 15 * 60_000;
const DEFAULT_VERIFY_EVERY_MS = 60 * 60_000;

export function createWebhookService(options: WebhookServiceOptions): WebhookService {
  // Every stored event wakes the inbox processor (built next; the receiver only stores before then).
  const side = buildSide(options, () => processor.poke());
  const { db, clock, tunnel, receiver, watch, path, catchUp, run } = side;
  const processor = buildProcessor(options);
  // The worker's abort, its promise, and the tunnel listener, while the service runs.
  const running: { stopper: AbortController | null; loop: Promise<void> | null; unlisten: (() => void) | null } = { stopper: null, loop: null, unlisten: null };
  const waitUntilSettled = (): Promise<void> =>
    new Promise<void>((resolve) => {
      side.settleWaiters.push(resolve);
      run.wake?.();
    });

  return {
    async start() {
      if (run.started) throw new Error('webhook service already started');
      const listening = await receiver.start();
      run.port = listening.port;
      if ((options.port ?? 0) === 0) writeLastReceiverPort(db, listening.port, clock.nowMs());
      processor.start();
      run.started = true;
      const unlisten = tunnel.onChange((status) => setUrl(side, urlFromStatus(side, status)));
      running.unlisten = unlisten;
      let publicBase: string;
      try {
        publicBase = await tunnel.start(listening.port);
      } catch (error) {
        run.started = false;
        unlisten();
        running.unlisten = null;
        await processor.stop();
        await receiver.stop();
        run.port = null;
        throw error;
      }
      setUrl(side, `${publicBase}${receiver.path()}`);
      const stopper = new AbortController();
      running.stopper = stopper;
      running.loop = runWorker(side, stopper.signal);
      return { callbackUrl: `${publicBase}${receiver.path()}` };
    },

    async stop() {
      if (!run.started) return;
      run.started = false;
      running.unlisten?.();
      running.unlisten = null;
      running.stopper?.abort(new Error('webhook service stopped'));
      run.wake?.();
      await running.loop;
      running.loop = null;
      running.stopper = null;
      const hadUrl = path.currentUrl !== null;
      withdrawUrl(side, path.currentUrl);
      path.currentUrl = null;
      path.verifiedAt = null;
      // The app may go on without webhooks: orders planned for a rare poll are brought forward.
      if (hadUrl) pullInPolling(side);
      await tunnel.stop();
      await receiver.stop();
      await processor.stop();
      run.port = null;
      for (const resolve of side.settleWaiters.splice(0)) resolve();
    },

    health: () => healthOf(side),

    callbackUrl: () => usableUrl(side),

    watch(productRefs) {
      const added = watch.watch(productRefs);
      if (added.length > 0) run.wake?.();
      return added;
    },

    unwatch: (productRefs) => watch.unwatch(productRefs),

    watched: () => watch.list(),

    webhooksLive: () => webhooksLiveNow(side),

    rotateToken() {
      receiver.rotateToken();
      writeCallbackToken(db, receiver.token(), clock.nowMs());
      if (!run.started) return null;
      setUrl(side, urlFromStatus(side, tunnel.status()));
      return usableUrl(side);
    },

    async catchUpNow() {
      if (!run.started) return runCatchUpOnce(side);
      // Through the worker, so that it follows any pending subscriptions and never runs twice at once.
      catchUp.pending = true;
      catchUp.retryAt = 0;
      await waitUntilSettled();
      if (catchUp.last === null) throw new Error('webhook service stopped before the catch-up ran');
      return catchUp.last;
    },

    settled() {
      if (!run.started) return Promise.resolve();
      return waitUntilSettled();
    },
  };
}

/** The receiver (with the stored token), the product watch, and all state, not started. */
function buildSide(options: WebhookServiceOptions, onEventStored: () => void): WebhookSide {
  const { db, clock, logger } = options;
  const probes = new Map<string, () => void>();
  const run: WebhookSide['run'] = { started: false, port: null, subscriptionError: null, probesStored: 0, lastMerchantEventAt: null, wake: null };
  // The token survives restarts, so a fixed port behind a fixed public URL keeps earlier orders' URL.
  const storedToken = readCallbackToken(db);
  const receiver: WebhookReceiver = createWebhookReceiver({
    db,
    cipher: options.cipher,
    logger,
    clock,
    port: options.port ?? 0,
    ...(storedToken !== null && isCallbackToken(storedToken) ? { token: storedToken } : {}),
    preferredPort: () => readLastReceiverPort(db),
    ...(options.listener ? { listener: options.listener } : {}),
    ...options.receiver,
    onStored: (eventId) => {
      const probe = probes.get(eventId);
      if (probe !== undefined) {
        run.probesStored++;
        probe();
      } else {
        run.lastMerchantEventAt = clock.nowMs();
      }
      onEventStored();
    },
  });
  if (storedToken !== receiver.token()) writeCallbackToken(db, receiver.token(), clock.nowMs());
  const watch = createProductWatch({
    db,
    client: options.client,
    clock,
    logger,
    ...(options.subscriptionBatchSize === undefined ? {} : { batchSize: options.subscriptionBatchSize }),
  });
  return {
    db,
    clock,
    logger,
    client: options.client,
    catalog: options.catalog,
    tracker: options.tracker,
    tunnel: options.tunnel,
    receiver,
    watch,
    timing: {
      liveWindowMs: options.liveWindowMs ?? DEFAULT_LIVE_WINDOW_MS,
      verifyEveryMs: options.verifyEveryMs ?? DEFAULT_VERIFY_EVERY_MS,
      heartbeatMs: options.heartbeatMs ?? LIVE_URL_HEARTBEAT_MS,
    },
    ...(options.catchUpConcurrency === undefined ? {} : { catchUpConcurrency: options.catchUpConcurrency }),
    ...(options.onCatchUp ? { onCatchUp: options.onCatchUp } : {}),
    probes,
    settleWaiters: [],
    path: { currentUrl: null, refusedUrl: null, verifiedAt: null, pathBrokenAt: null, nextProbeAt: 0, probing: false, heartbeatAt: 0 },
    catchUp: { pending: false, running: false, retryAt: 0, failures: 0, last: null, lastError: null },
    run,
  };
}

function buildProcessor(options: WebhookServiceOptions): InboxProcessor {
  return createInboxProcessor({
    db: options.db,
    cipher: options.cipher,
    clock: options.clock,
    logger: options.logger,
    catalog: options.catalog,
    client: options.client,
    tracker: options.tracker,
    ...(options.pause ? { pause: options.pause } : {}),
    ...(options.onProcessed ? { onProcessed: options.onProcessed } : {}),
  });
}

function healthOf(side: WebhookSide): WebhookHealth {
  const { receiver, tunnel, path, catchUp, run } = side;
  const stats = receiver.stats();
  const status = tunnel.status();
  const counts = side.watch.counts(usableUrl(side));
  const rejected = Object.values(stats.rejected).reduce((sum, n) => sum + n, 0);
  return {
    receiver: { up: stats.listening, port: run.port },
    tunnel: { kind: status.kind, up: status.up, publicUrl: status.publicUrl, lastError: status.lastError, restarts: status.restarts },
    callbackUrl: path.currentUrl,
    callbackUrlRefused: path.currentUrl !== null && path.currentUrl === path.refusedUrl,
    webhooksLive: webhooksLiveNow(side),
    lastEventAt: stats.lastEventAt,
    lastMerchantEventAt: run.lastMerchantEventAt,
    pathVerifiedAt: path.verifiedAt,
    events: { received: stats.received - run.probesStored, duplicates: stats.duplicates, rejected },
    subscriptions: { ...counts, lastError: run.subscriptionError },
    catchUp: { running: catchUp.running, pending: catchUp.pending, last: catchUp.last, lastError: catchUp.lastError },
  };
}
