// The webhook side composed (issue 4, "Using the public URL"): the local receiver and its inbox
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
//   cancelled with them (spec 6.4.6–8). Subscribing first means nothing falls between the two.
// - webhooksLive() says whether polling may be rare: only while receiver and tunnel are up, the
//   merchant has not refused the URL, and either an event arrived recently or a probe sent through
//   the public URL came back to this receiver. Otherwise the tracker polls at its normal pace, and
//   when the path goes down every order that still moves is pulled in to be polled soon.
// - A probe that fails while the tunnel says it is up (a user-run proxy down, a tunnel that stopped
//   forwarding) counts as the path going down; when a later probe comes back, the same re-subscribe
//   and catch-up run as for a tunnel that came back, since the sends in between failed as well.
// - One worker loop does the timed work (heartbeat, subscription renewals and retries, catch-up
//   retries, path probes), so nothing here runs every second: it sleeps until the next due item.
import type { Database } from 'better-sqlite3';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import type { OrderTracker } from '../orders/order-tracker';
import type { Clock } from '../platform/clock';
import type { SecretStore } from '../secrets/secret-store';
import type { CardCipher } from '../vault/card-cipher';
import { isCallbackToken } from './callback-token';
import { ordersToCatchUp, runCatchUp, type CatchUpReport } from './catch-up';
import { isWebhooksLive, type EventsHealth } from './events-health';
import {
  clearLiveCallbackUrl,
  LIVE_URL_HEARTBEAT_MS,
  readCallbackToken,
  writeCallbackToken,
  writeLiveCallbackUrl,
} from './events-settings';
import { createInboxProcessor, type InboxProcessor } from './inbox-processor';
import { newProbeEventId, postProbe, probeBody } from './path-probe';
import { createProductWatch, type ProductWatch } from './product-watch';
import type { WatchedProduct } from './product-watch-store';
import type { Tunnel, TunnelStatus } from './tunnels/tunnel';
import { createWebhookReceiver, type WebhookReceiver } from './webhook-receiver';
import type { WorkerPause } from '../platform/worker-loop';
import { backoffCeilingMs } from '../../shared/backoff';

/** What core hands to an events factory (create-core.ts). */
export interface EventsParts {
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
}

/** Builds the webhook side from core's parts; the host decides port and tunnel. */
export type EventsFactory = (parts: EventsParts) => EventsService;

export interface EventsServiceOptions extends EventsParts {
  readonly tunnel: Tunnel;
  /** The receiver's port on 127.0.0.1; 0 (default) = a free one. */
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

export interface EventsService {
  /** Receiver, tunnel, processor and the worker; resolves with the callback URL given to the merchant. */
  start(): Promise<{ callbackUrl: string }>;
  stop(): Promise<void>;
  health(): EventsHealth;
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

export const DEFAULT_LIVE_WINDOW_MS = 15 * 60_000;
export const DEFAULT_VERIFY_EVERY_MS = 60 * 60_000;
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_RETRY_MS = 60_000;
const CATCH_UP_RETRY = { baseMs: 30_000, maxMs: 15 * 60_000 };
const MAX_WAIT_MS = 60_000;
const MIN_WAIT_MS = 250;

export function createEventsService(options: EventsServiceOptions): EventsService {
  const { db, clock, logger, tunnel } = options;
  const liveWindowMs = options.liveWindowMs ?? DEFAULT_LIVE_WINDOW_MS;
  const verifyEveryMs = options.verifyEveryMs ?? DEFAULT_VERIFY_EVERY_MS;
  const heartbeatMs = options.heartbeatMs ?? LIVE_URL_HEARTBEAT_MS;

  // The token survives restarts, so a fixed port behind a fixed public URL keeps earlier orders' URL.
  const storedToken = readCallbackToken(db);
  const probes = new Map<string, () => void>();
  let probesStored = 0;
  const receiver: WebhookReceiver = createWebhookReceiver({
    db,
    cipher: options.cipher,
    logger,
    clock,
    port: options.port ?? 0,
    ...(storedToken !== null && isCallbackToken(storedToken) ? { token: storedToken } : {}),
    ...options.receiver,
    onStored: (eventId) => {
      const probe = probes.get(eventId);
      if (probe !== undefined) {
        probesStored++;
        probe();
      }
      processor.poke();
    },
  });
  if (storedToken !== receiver.token()) writeCallbackToken(db, receiver.token(), clock.nowMs());

  const processor: InboxProcessor = createInboxProcessor({
    db,
    cipher: options.cipher,
    clock,
    logger,
    catalog: options.catalog,
    client: options.client,
    tracker: options.tracker,
    ...(options.pause ? { pause: options.pause } : {}),
    ...(options.onProcessed ? { onProcessed: options.onProcessed } : {}),
  });
  const watch: ProductWatch = createProductWatch({
    db,
    client: options.client,
    clock,
    logger,
    ...(options.subscriptionBatchSize === undefined ? {} : { batchSize: options.subscriptionBatchSize }),
  });

  let started = false;
  let port: number | null = null;
  let currentUrl: string | null = null;
  let refusedUrl: string | null = null;
  let verifiedAt: number | null = null;
  // A probe through the live URL failed (the tunnel says up, but nothing reaches us: a user-run proxy
  // that is down, a tunnel that stopped forwarding). Deliveries meanwhile failed too.
  // Our clock ms of the first failed probe since the path last worked; null while it works.
  let pathBrokenAt: number | null = null;
  let nextProbeAt = 0;
  let probing = false;
  let heartbeatAt = 0;
  let subscriptionError: string | null = null;
  const catchUp = { pending: false, running: false, retryAt: 0, failures: 0, last: null as CatchUpReport | null, lastError: null as string | null };
  let stopper: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let unlisten: (() => void) | null = null;
  const settleWaiters: (() => void)[] = [];

  const usableUrl = (): string | null => (currentUrl !== null && currentUrl !== refusedUrl ? currentUrl : null);

  const publish = (): void => {
    const url = usableUrl();
    if (url === null) return;
    writeLiveCallbackUrl(db, url, clock.nowMs());
    heartbeatAt = clock.nowMs();
  };

  const withdraw = (url: string | null): void => {
    if (url !== null) clearLiveCallbackUrl(db, url);
  };

  /** While the path is down, orders that still move must not wait for a poll planned as "rare". */
  const pullInPolling = (): void => {
    for (const ref of ordersToCatchUp(db)) options.tracker.nudge(ref);
  };

  /** Whatever reached nobody meanwhile is gone (spec 6.4.6–8): subscribe everything again, then read by detail. */
  const resubscribeAndCatchUp = (): void => {
    watch.resubscribeAll();
    catchUp.pending = true;
    catchUp.retryAt = 0;
    catchUp.failures = 0;
  };

  const setUrl = (next: string | null): void => {
    if (next === currentUrl) return;
    const previous = currentUrl;
    currentUrl = next;
    verifiedAt = null;
    pathBrokenAt = null;
    nextProbeAt = 0;
    if (next === null) {
      withdraw(previous);
      logger.warn('webhook path down: polling at the normal pace', { tunnel: tunnel.kind });
      if (started) pullInPolling();
    } else {
      if (previous !== null) withdraw(previous);
      resubscribeAndCatchUp();
      publish();
      logger.info('webhook path up', { tunnel: tunnel.kind, publicUrl: tunnel.status().publicUrl });
    }
    wake?.();
  };

  const urlFromStatus = (status: TunnelStatus): string | null =>
    started && status.up && status.publicUrl !== null && receiver.stats().listening ? `${status.publicUrl}${receiver.path()}` : null;

  const probe = async (url: string): Promise<void> => {
    probing = true;
    const eventId = newProbeEventId();
    const stored = new Promise<boolean>((resolve) => {
      probes.set(eventId, () => resolve(true));
      setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref();
    });
    try {
      const answered = await postProbe(url, probeBody(eventId, clock.nowMs()), PROBE_TIMEOUT_MS);
      const reached = await stored;
      if (url !== currentUrl) return;
      if (answered && reached) {
        verifiedAt = clock.nowMs();
        logger.info('webhook path verified', { tunnel: tunnel.kind });
        if (pathBrokenAt !== null) {
          // The same URL works again, but the merchant's sends failed while it did not, and three
          // failed product.changed sends cancelled those subscriptions: as after a tunnel outage.
          pathBrokenAt = null;
          logger.warn('webhook path works again: re-subscribing and catching up', { tunnel: tunnel.kind });
          resubscribeAndCatchUp();
        }
      } else {
        nextProbeAt = clock.nowMs() + PROBE_RETRY_MS;
        // Not verified any more: webhooks are not counted as live on an old verification, and the
        // probe goes on every PROBE_RETRY_MS until the path works again.
        verifiedAt = null;
        logger.warn('webhook path probe failed', { tunnel: tunnel.kind, answered, reached });
        if (pathBrokenAt === null) {
          pathBrokenAt = clock.nowMs();
          pullInPolling();
        }
      }
    } finally {
      probes.delete(eventId);
      probing = false;
    }
  };

  const runCatchUpOnce = async (signal?: AbortSignal): Promise<CatchUpReport> => {
    catchUp.running = true;
    try {
      const report = await runCatchUp(
        {
          db,
          client: options.client,
          tracker: options.tracker,
          catalog: options.catalog,
          clock,
          logger,
          ...(options.catchUpConcurrency === undefined ? {} : { concurrency: options.catchUpConcurrency }),
        },
        watch.refs(),
        signal,
      );
      catchUp.last = report;
      if (report.complete) {
        catchUp.pending = false;
        catchUp.failures = 0;
        catchUp.lastError = null;
      } else {
        catchUp.failures++;
        catchUp.lastError = 'the merchant could not be reached; catch-up will run again';
        catchUp.retryAt = clock.nowMs() + backoffCeilingMs(CATCH_UP_RETRY, catchUp.failures);
      }
      options.onCatchUp?.(report);
      return report;
    } finally {
      catchUp.running = false;
    }
  };

  const subscriptionsDue = (nowMs: number): boolean => {
    const url = usableUrl();
    const due = watch.nextDueAt();
    return url !== null && due !== null && due * 1000 <= nowMs;
  };

  /** One round of timed work; the caller serializes rounds. */
  const tick = async (signal: AbortSignal): Promise<void> => {
    const now = clock.nowMs();
    if (usableUrl() !== null && now - heartbeatAt >= heartbeatMs) publish();

    const url = usableUrl();
    if (url !== null && subscriptionsDue(now)) {
      const pass = await watch.subscribeDue(url, signal, () => usableUrl() === url);
      // The URL changed during the pass: batches answered meanwhile were bound to the old one.
      if (usableUrl() !== url) watch.resubscribeAll();
      if (pass.urlRefused) {
        refusedUrl = url;
        subscriptionError = 'the merchant refused the callback URL (422114): it must be public HTTPS';
        withdraw(url);
        logger.warn('callback URL refused by the merchant', { tunnel: tunnel.kind });
      } else if (pass.interrupted) {
        subscriptionError = 'the merchant could not be reached; subscriptions will be retried';
      } else {
        subscriptionError = pass.failed > 0 ? `${pass.failed} product(s) could not be subscribed` : null;
      }
    }

    if (catchUp.pending && !catchUp.running && clock.nowMs() >= catchUp.retryAt && signal.aborted === false) {
      await runCatchUpOnce(signal);
    }

    const live = usableUrl();
    const lastEventAt = receiver.stats().lastEventAt;
    const lastSign = Math.max(verifiedAt ?? 0, lastEventAt ?? 0);
    if (live !== null && !probing && clock.nowMs() >= nextProbeAt && (verifiedAt === null || clock.nowMs() - lastSign >= verifyEveryMs)) {
      await probe(live);
    }
  };

  const nextWakeMs = (): number => {
    const now = clock.nowMs();
    const candidates: number[] = [now + MAX_WAIT_MS];
    if (usableUrl() !== null) {
      candidates.push(heartbeatAt + heartbeatMs);
      const due = watch.nextDueAt();
      if (due !== null) candidates.push(due * 1000);
      if (verifiedAt !== null) candidates.push(Math.max(nextProbeAt, Math.max(verifiedAt, receiver.stats().lastEventAt ?? 0) + verifyEveryMs));
      else candidates.push(nextProbeAt);
    }
    if (catchUp.pending) candidates.push(catchUp.retryAt);
    return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.min(...candidates) - now));
  };

  const isSettled = (): boolean => !subscriptionsDue(clock.nowMs()) && !(catchUp.pending && clock.nowMs() >= catchUp.retryAt) && !catchUp.running;

  const runLoop = async (signal: AbortSignal): Promise<void> => {
    while (!signal.aborted) {
      try {
        await tick(signal);
      } catch (error) {
        if (!signal.aborted) logger.error('events worker round failed', { error: error instanceof Error ? logger.redact(error.message) : 'unknown' });
      }
      if (isSettled()) for (const resolve of settleWaiters.splice(0)) resolve();
      if (signal.aborted) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        clock.sleep(nextWakeMs(), signal).then(resolve, resolve);
      });
      wake = null;
    }
  };

  const liveNow = (): boolean =>
    usableUrl() !== null &&
    // After a failed probe only an event that arrived since shows that the path works.
    (pathBrokenAt === null || (receiver.stats().lastEventAt ?? 0) > pathBrokenAt) &&
    isWebhooksLive({
      receiverUp: receiver.stats().listening,
      tunnelUp: tunnel.status().up,
      lastEventAt: receiver.stats().lastEventAt,
      pathVerifiedAt: verifiedAt,
      nowMs: clock.nowMs(),
      windowMs: liveWindowMs,
    });

  return {
    async start() {
      if (started) throw new Error('events service already started');
      const listening = await receiver.start();
      port = listening.port;
      processor.start();
      started = true;
      unlisten = tunnel.onChange((status) => setUrl(urlFromStatus(status)));
      let publicBase: string;
      try {
        publicBase = await tunnel.start(listening.port);
      } catch (error) {
        started = false;
        unlisten();
        unlisten = null;
        await processor.stop();
        await receiver.stop();
        port = null;
        throw error;
      }
      setUrl(`${publicBase}${receiver.path()}`);
      stopper = new AbortController();
      loop = runLoop(stopper.signal);
      return { callbackUrl: `${publicBase}${receiver.path()}` };
    },

    async stop() {
      if (!started) return;
      started = false;
      unlisten?.();
      unlisten = null;
      stopper?.abort(new Error('events service stopped'));
      wake?.();
      await loop;
      loop = null;
      stopper = null;
      const hadUrl = currentUrl !== null;
      withdraw(currentUrl);
      currentUrl = null;
      verifiedAt = null;
      // The app may go on without webhooks: orders planned for a rare poll are brought forward.
      if (hadUrl) pullInPolling();
      await tunnel.stop();
      await receiver.stop();
      await processor.stop();
      port = null;
      for (const resolve of settleWaiters.splice(0)) resolve();
    },

    health(): EventsHealth {
      const stats = receiver.stats();
      const status = tunnel.status();
      const url = usableUrl();
      const counts = watch.counts(url);
      const rejected = Object.values(stats.rejected).reduce((sum, n) => sum + n, 0);
      return {
        receiver: { up: stats.listening, port },
        tunnel: { kind: status.kind, up: status.up, publicUrl: status.publicUrl, lastError: status.lastError, restarts: status.restarts },
        callbackUrl: currentUrl,
        callbackUrlRefused: currentUrl !== null && currentUrl === refusedUrl,
        webhooksLive: liveNow(),
        lastEventAt: stats.lastEventAt,
        pathVerifiedAt: verifiedAt,
        events: { received: stats.received - probesStored, duplicates: stats.duplicates, rejected },
        subscriptions: { ...counts, lastError: subscriptionError },
        catchUp: { running: catchUp.running, pending: catchUp.pending, last: catchUp.last, lastError: catchUp.lastError },
      };
    },

    callbackUrl: usableUrl,

    watch(productRefs) {
      const added = watch.watch(productRefs);
      if (added.length > 0) wake?.();
      return added;
    },

    unwatch: (productRefs) => watch.unwatch(productRefs),

    watched: () => watch.list(),

    webhooksLive: liveNow,

    rotateToken() {
      receiver.rotateToken();
      writeCallbackToken(db, receiver.token(), clock.nowMs());
      if (!started) return null;
      setUrl(urlFromStatus(tunnel.status()));
      return usableUrl();
    },

    async catchUpNow() {
      if (!started) return runCatchUpOnce();
      // Through the worker, so that it follows any pending subscriptions and never runs twice at once.
      catchUp.pending = true;
      catchUp.retryAt = 0;
      await new Promise<void>((resolve) => {
        settleWaiters.push(resolve);
        wake?.();
      });
      if (catchUp.last === null) throw new Error('events service stopped before the catch-up ran');
      return catchUp.last;
    },

    settled() {
      if (!started) return Promise.resolve();
      return new Promise<void>((resolve) => {
        settleWaiters.push(resolve);
        wake?.();
      });
    },
  };
}
