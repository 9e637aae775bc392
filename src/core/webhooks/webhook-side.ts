// The running webhook side's parts and state, in one object that its pieces share: the callback path
// (webhook-path.ts), the timed worker (webhook-worker.ts) and the service that composes them
// (webhook-service.ts). All mutable state is here, grouped by what it is about.
import type { Database } from 'better-sqlite3';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import type { OrderTracker } from '../orders/order-tracker';
import type { Clock } from '../platform/clock';
import type { CatchUpReport } from './catch-up';
import type { ProductWatch } from './product-watch';
import type { Tunnel } from './tunnels/tunnel';
import type { WebhookReceiver } from './webhook-receiver';

/** The callback path: the URL given to the merchant, and what is known of whether it works. */
export interface PathState {
  /** The tunnel's public base URL + the receiver's secret path, while both are up. */
  currentUrl: string | null;
  /** The URL the merchant refused (422114): not given to orders, not live. */
  refusedUrl: string | null;
  /** Our clock ms of the last probe that came back through the public URL; null until one did. */
  verifiedAt: number | null;
  /**
   * Our clock ms of the first failed probe since the path last worked; null while it works. A probe
   * fails while the tunnel says up when nothing reaches us (a user-run proxy down, a tunnel that
   * stopped forwarding); the merchant's deliveries meanwhile failed too.
   */
  pathBrokenAt: number | null;
  /** Our clock ms before which no probe is sent. */
  nextProbeAt: number;
  /** A probe is in flight. */
  probing: boolean;
  /** Our clock ms the live URL was last published (settings heartbeat). */
  heartbeatAt: number;
}

/** The catch-up after anything may have been lost: pending until a run completes, retried with backoff. */
export interface CatchUpState {
  pending: boolean;
  running: boolean;
  /** Our clock ms before which a pending catch-up does not run again. */
  retryAt: number;
  failures: number;
  last: CatchUpReport | null;
  lastError: string | null;
}

export interface WebhookSide {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly client: MerchantClient;
  readonly catalog: CatalogRepository;
  readonly tracker: OrderTracker;
  readonly tunnel: Tunnel;
  readonly receiver: WebhookReceiver;
  readonly watch: ProductWatch;
  readonly timing: {
    /** An event or a verified path keeps webhooks live this long (core clock ms). */
    readonly liveWindowMs: number;
    /** Without events, the path is probed again this often (core clock ms). */
    readonly verifyEveryMs: number;
    /** The live URL is published again this often. */
    readonly heartbeatMs: number;
  };
  readonly catchUpConcurrency?: number;
  readonly onCatchUp?: (report: CatchUpReport) => void;
  /** Probe event ids sent through the public URL, each with what to call once the receiver stored it. */
  readonly probes: Map<string, () => void>;
  /** Callers of settled() and catchUpNow(), resolved once nothing is due now. */
  readonly settleWaiters: (() => void)[];
  readonly path: PathState;
  readonly catchUp: CatchUpState;
  /** Mutable: whether the service runs, its port, the subscriptions' last error, probes counted, the worker's wake-up. */
  readonly run: {
    started: boolean;
    port: number | null;
    subscriptionError: string | null;
    /** Probe events the receiver stored: not counted as the merchant's in the health. */
    probesStored: number;
    /** Our clock, ms: when the merchant's last new event was stored (probes and duplicates not counted, as in `events.received`). */
    lastMerchantEventAt: number | null;
    /** Ends the worker's sleep early (new work), while it sleeps. */
    wake: (() => void) | null;
  };
}
