// The callback path of the webhook side: the URL the merchant is given (tunnel base + the receiver's
// secret path), published for other processes while it works and withdrawn when it does not, probed
// through the public URL, and whether webhooks count as live (so the tracker may poll rarely).
import { ordersToCatchUp } from './catch-up';
import { newProbeEventId, postProbe, probeBody } from './path-probe';
import type { TunnelStatus } from './tunnels/tunnel';
import { isWebhooksLive } from './webhook-health';
import { clearLiveCallbackUrl, writeLiveCallbackUrl } from './webhook-settings';
import type { WebhookSide } from './webhook-side';

const PROBE_TIMEOUT_MS = 5_000;
const PROBE_RETRY_MS = 60_000;

/** The live callback URL for new orders; null while there is none or the merchant refused it. */
export function usableUrl(side: WebhookSide): string | null {
  const { currentUrl, refusedUrl } = side.path;
  return currentUrl !== null && currentUrl !== refusedUrl ? currentUrl : null;
}

/** Publishes the live URL (settings, with a heartbeat) for orders created by other processes. */
export function publish(side: WebhookSide): void {
  const url = usableUrl(side);
  if (url === null) return;
  writeLiveCallbackUrl(side.db, url, side.clock.nowMs());
  side.path.heartbeatAt = side.clock.nowMs();
}

export function withdrawUrl(side: WebhookSide, url: string | null): void {
  if (url !== null) clearLiveCallbackUrl(side.db, url);
}

/** While the path is down, orders that still move must not wait for a poll planned as "rare". */
export function pullInPolling(side: WebhookSide): void {
  for (const ref of ordersToCatchUp(side.db)) side.tracker.nudge(ref);
}

/** Whatever reached nobody meanwhile is gone (interface v1 §6.4.6–8): subscribe everything again, then read by detail. */
function resubscribeAndCatchUp(side: WebhookSide): void {
  side.watch.resubscribeAll();
  side.catchUp.pending = true;
  side.catchUp.retryAt = 0;
  side.catchUp.failures = 0;
}

/** A new URL (or none): the old one withdrawn, everything subscribed again with the new one. */
export function setUrl(side: WebhookSide, next: string | null): void {
  const { path, logger, tunnel } = side;
  if (next === path.currentUrl) return;
  const previous = path.currentUrl;
  path.currentUrl = next;
  path.verifiedAt = null;
  path.pathBrokenAt = null;
  path.nextProbeAt = 0;
  if (next === null) {
    withdrawUrl(side, previous);
    logger.warn('webhook path down: polling at the normal pace', { tunnel: tunnel.kind });
    if (side.run.started) pullInPolling(side);
  } else {
    if (previous !== null) withdrawUrl(side, previous);
    resubscribeAndCatchUp(side);
    publish(side);
    logger.info('webhook path up', { tunnel: tunnel.kind, publicUrl: tunnel.status().publicUrl });
  }
  side.run.wake?.();
}

/** The callback URL a tunnel status gives, while the service runs and the receiver listens. */
export function urlFromStatus(side: WebhookSide, status: TunnelStatus): string | null {
  return side.run.started && status.up && status.publicUrl !== null && side.receiver.stats().listening ? `${status.publicUrl}${side.receiver.path()}` : null;
}

/** Sends a probe event through the public URL and records whether it came back to this receiver. */
export async function probePath(side: WebhookSide, url: string): Promise<void> {
  const { path, clock, logger, tunnel } = side;
  path.probing = true;
  const eventId = newProbeEventId();
  const stored = new Promise<boolean>((resolve) => {
    side.probes.set(eventId, () => resolve(true));
    setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref();
  });
  try {
    const answered = await postProbe(url, probeBody(eventId, clock.nowMs()), PROBE_TIMEOUT_MS);
    const reached = await stored;
    if (url !== path.currentUrl) return;
    if (answered && reached) {
      path.verifiedAt = clock.nowMs();
      logger.info('webhook path verified', { tunnel: tunnel.kind });
      if (path.pathBrokenAt !== null) {
        // The same URL works again, but the merchant's sends failed while it did not, and three
        // failed product.changed sends cancelled those subscriptions: as after a tunnel outage.
        path.pathBrokenAt = null;
        logger.warn('webhook path works again: re-subscribing and catching up', { tunnel: tunnel.kind });
        resubscribeAndCatchUp(side);
      }
    } else {
      path.nextProbeAt = clock.nowMs() + PROBE_RETRY_MS;
      // Not verified any more: webhooks are not counted as live on an old verification, and the
      // probe goes on every PROBE_RETRY_MS until the path works again.
      path.verifiedAt = null;
      logger.warn('webhook path probe failed', { tunnel: tunnel.kind, answered, reached });
      if (path.pathBrokenAt === null) {
        path.pathBrokenAt = clock.nowMs();
        pullInPolling(side);
      }
    }
  } finally {
    side.probes.delete(eventId);
    path.probing = false;
  }
}

/** Whether webhooks are being received (the tracker then polls rarely). */
export function webhooksLiveNow(side: WebhookSide): boolean {
  const { receiver, path } = side;
  return (
    usableUrl(side) !== null &&
    // After a failed probe only an event that arrived since shows that the path works.
    (path.pathBrokenAt === null || (receiver.stats().lastEventAt ?? 0) > path.pathBrokenAt) &&
    isWebhooksLive({
      receiverUp: receiver.stats().listening,
      tunnelUp: side.tunnel.status().up,
      lastEventAt: receiver.stats().lastEventAt,
      pathVerifiedAt: path.verifiedAt,
      nowMs: side.clock.nowMs(),
      windowMs: side.timing.liveWindowMs,
    })
  );
}
