// The webhook side's health for the UI: receiver up, tunnel up and its URL, last event
// time, counts of received, duplicate and rejected events, the subscriptions and the last catch-up;
// and the one rule that says whether webhooks are live (polling then becomes rarer).
import type { CatchUpReport } from './catch-up';
import type { WatchCounts } from './product-watch-store';
import type { TunnelKind } from './tunnels/tunnel';

export interface WebhookHealth {
  readonly receiver: { readonly up: boolean; readonly port: number | null };
  readonly tunnel: {
    readonly kind: TunnelKind;
    readonly up: boolean;
    readonly publicUrl: string | null;
    readonly lastError: string | null;
    readonly restarts: number;
  };
  /** What the merchant is told (orders, subscriptions); null while receiver or tunnel is down. */
  readonly callbackUrl: string | null;
  /** The merchant refused this URL (422114): it is not used for orders. */
  readonly callbackUrlRefused: boolean;
  readonly webhooksLive: boolean;
  /** Our clock, ms: when an event last arrived, and when a probe through the public URL last came back. */
  readonly lastEventAt: number | null;
  readonly pathVerifiedAt: number | null;
  /** Our clock, ms: the merchant's last new event, the one `events.received` counts (what the buyer is shown beside it). */
  readonly lastMerchantEventAt: number | null;
  /** Merchant events only (the service's own path probes are not counted). */
  readonly events: { readonly received: number; readonly duplicates: number; readonly rejected: number };
  readonly subscriptions: WatchCounts & { readonly lastError: string | null };
  readonly catchUp: { readonly running: boolean; readonly pending: boolean; readonly last: CatchUpReport | null; readonly lastError: string | null };
}

export interface LivenessInput {
  readonly receiverUp: boolean;
  readonly tunnelUp: boolean;
  readonly lastEventAt: number | null;
  readonly pathVerifiedAt: number | null;
  readonly nowMs: number;
  /** How long an event or a verified path keeps webhooks counted as live. */
  readonly windowMs: number;
}

/**
 * Live only while the whole path can work (receiver listening, tunnel up) and something shows that
 * it does: an event arrived recently, or a probe sent through the public URL came back.
 */
export function isWebhooksLive(input: LivenessInput): boolean {
  if (!input.receiverUp || !input.tunnelUp) return false;
  const recent = (at: number | null): boolean => at !== null && input.nowMs - at <= input.windowMs;
  return recent(input.lastEventAt) || recent(input.pathVerifiedAt);
}
