// The webhook side's one worker loop for timed work: the live URL's heartbeat, subscription renewals
// and retries, catch-up runs and their retries, path probes. Nothing here runs every second: the loop
// sleeps until the next due item (or a wake-up), one round at a time.
import { runCatchUp, type CatchUpReport } from './catch-up';
import { probePath, publish, usableUrl, withdrawUrl } from './webhook-path';
import type { WebhookSide } from './webhook-side';
import { backoffCeilingMs } from '../../shared/backoff';

const CATCH_UP_RETRY = { baseMs: 30_000, maxMs: 15 * 60_000 };
const MAX_WAIT_MS = 60_000;
const MIN_WAIT_MS = 250;

/** Reads by detail what may have been missed; an incomplete run is retried with backoff. */
export async function runCatchUpOnce(side: WebhookSide, signal?: AbortSignal): Promise<CatchUpReport> {
  const { catchUp, clock } = side;
  catchUp.running = true;
  try {
    const report = await runCatchUp(
      {
        db: side.db,
        client: side.client,
        tracker: side.tracker,
        catalog: side.catalog,
        clock,
        logger: side.logger,
        ...(side.catchUpConcurrency === undefined ? {} : { concurrency: side.catchUpConcurrency }),
      },
      side.watch.refs(),
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
    side.onCatchUp?.(report);
    return report;
  } finally {
    catchUp.running = false;
  }
}

function subscriptionsDue(side: WebhookSide, nowMs: number): boolean {
  const url = usableUrl(side);
  const due = side.watch.nextDueAt();
  return url !== null && due !== null && due * 1000 <= nowMs;
}

/** Subscribes the due watched products with the live URL; a refusal (422114) withdraws the URL. */
async function subscribeDue(side: WebhookSide, url: string, signal: AbortSignal): Promise<void> {
  const { watch, run } = side;
  const pass = await watch.subscribeDue(url, signal, () => usableUrl(side) === url);
  // The URL changed during the pass: batches answered meanwhile were bound to the old one.
  if (usableUrl(side) !== url) watch.resubscribeAll();
  if (pass.urlRefused) {
    side.path.refusedUrl = url;
    run.subscriptionError = 'the merchant refused the callback URL (422114): it must be public HTTPS';
    withdrawUrl(side, url);
    side.logger.warn('callback URL refused by the merchant', { tunnel: side.tunnel.kind });
  } else if (pass.interrupted) {
    run.subscriptionError = 'the merchant could not be reached; subscriptions will be retried';
  } else {
    run.subscriptionError = pass.failed > 0 ? `${pass.failed} product(s) could not be subscribed` : null;
  }
}

/** One round of timed work; the caller serializes rounds. */
async function tick(side: WebhookSide, signal: AbortSignal): Promise<void> {
  const { clock, path, catchUp } = side;
  const now = clock.nowMs();
  if (usableUrl(side) !== null && now - path.heartbeatAt >= side.timing.heartbeatMs) publish(side);

  const url = usableUrl(side);
  if (url !== null && subscriptionsDue(side, now)) await subscribeDue(side, url, signal);

  if (catchUp.pending && !catchUp.running && clock.nowMs() >= catchUp.retryAt && signal.aborted === false) {
    await runCatchUpOnce(side, signal);
  }

  const live = usableUrl(side);
  const lastEventAt = side.receiver.stats().lastEventAt;
  const lastSign = Math.max(path.verifiedAt ?? 0, lastEventAt ?? 0);
  if (live !== null && !path.probing && clock.nowMs() >= path.nextProbeAt && (path.verifiedAt === null || clock.nowMs() - lastSign >= side.timing.verifyEveryMs)) {
    await probePath(side, live);
  }
}

function nextWakeMs(side: WebhookSide): number {
  const { clock, path, catchUp } = side;
  const now = clock.nowMs();
  const candidates: number[] = [now + MAX_WAIT_MS];
  if (usableUrl(side) !== null) {
    candidates.push(path.heartbeatAt + side.timing.heartbeatMs);
    const due = side.watch.nextDueAt();
    if (due !== null) candidates.push(due * 1000);
    if (path.verifiedAt !== null) candidates.push(Math.max(path.nextProbeAt, Math.max(path.verifiedAt, side.receiver.stats().lastEventAt ?? 0) + side.timing.verifyEveryMs));
    else candidates.push(path.nextProbeAt);
  }
  if (catchUp.pending) candidates.push(catchUp.retryAt);
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.min(...candidates) - now));
}

function isSettled(side: WebhookSide): boolean {
  const { clock, catchUp } = side;
  return !subscriptionsDue(side, clock.nowMs()) && !(catchUp.pending && clock.nowMs() >= catchUp.retryAt) && !catchUp.running;
}

/** Rounds until `signal` aborts; after each, callers of settled() are answered when nothing is due. */
export async function runWorker(side: WebhookSide, signal: AbortSignal): Promise<void> {
  const { logger, run } = side;
  while (!signal.aborted) {
    try {
      await tick(side, signal);
    } catch (error) {
      if (!signal.aborted) logger.error('webhook worker round failed', { error: error instanceof Error ? logger.redact(error.message) : 'unknown' });
    }
    if (isSettled(side)) for (const resolve of side.settleWaiters.splice(0)) resolve();
    if (signal.aborted) break;
    await new Promise<void>((resolve) => {
      run.wake = resolve;
      side.clock.sleep(nextWakeMs(side), signal).then(resolve, resolve);
    });
    run.wake = null;
  }
}
