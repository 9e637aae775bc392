// Delivers webhook messages by the schedule of interface v1 §6.4: a send at once, and while no send has been
// acknowledged, a second 15 s and a third 30 s after the first (sandbox time), each with the same
// eventId, address and body bytes. After the third failure the message is given up and its owner
// told (so that a failed product.changed can cancel its own subscription).
import { setMaxListeners } from 'node:events';
import { rootCertificates } from 'node:tls';
import type { SandboxClock, SandboxTimer } from '../clock';
import { createDeliveryLog, type DeliveryRecord } from './delivery-log';
import { sendWebhook } from './webhook-send';

export type { DeliveryRecord } from './delivery-log';

export interface WebhookMessage {
  eventId: string;
  eventType: string;
  url: string;
  body: Record<string, unknown>;
  /** Called once when the third send has failed; never when a send succeeded or on stop(). */
  onFinalFailure?: () => void;
}

export interface WebhookDispatcher {
  enqueue(message: WebhookMessage): void;
  /** Every finished send, in the order the sends started (the most recent 100,000). */
  deliveries(): DeliveryRecord[];
  /** Messages not yet acknowledged or given up. */
  pending(): number;
  /** Cancels scheduled sends and aborts sends in flight; enqueue is ignored afterwards. */
  stop(): Promise<void>;
}

export interface WebhookDispatcherOptions {
  clock: SandboxClock;
  /** Real milliseconds a receiver has to answer, connect included (interface v1 §8: 3 seconds). */
  ackTimeoutMs?: number;
  log?: (line: string) => void;
  /** An extra CA accepted for https callbacks, besides the system roots. */
  tlsCa?: string;
  /** How many delivery records are kept; the oldest are dropped beyond it. */
  maxDeliveryRecords?: number;
}

/** Sandbox milliseconds after the first send at which sends 2 and 3 are due. */
export const RETRY_OFFSETS_MS = [15_000, 30_000] as const;
export const DEFAULT_ACK_TIMEOUT_MS = 3_000;
const DEFAULT_MAX_DELIVERY_RECORDS = 100_000;

interface Task {
  message: WebhookMessage;
  body: Buffer;
  firstSentAtMs: number;
  timer: SandboxTimer | undefined;
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { clock } = options;
  const timeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
  const log = options.log ?? ((): void => undefined);
  // Node's `ca` option replaces the system roots, so an extra CA has to bring them along.
  const ca = options.tlsCa ? [...rootCertificates, options.tlsCa] : undefined;
  const records = createDeliveryLog(options.maxDeliveryRecords ?? DEFAULT_MAX_DELIVERY_RECORDS);
  const tasks = new Set<Task>();
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();
  // Every send in flight listens on this one signal; thousands at once are expected, not a leak.
  setMaxListeners(0, abort.signal);
  let stopped = false;

  const send = (task: Task, attempt: 1 | 2 | 3): void => {
    const { message } = task;
    const sentAtMs = clock.nowMs();
    if (attempt === 1) task.firstSentAtMs = sentAtMs;
    const finish = records.start({
      eventId: message.eventId,
      eventType: message.eventType,
      url: message.url,
      attempt,
      sentAt: Math.floor(sentAtMs / 1000),
      sentAtMs,
    });
    const flight = sendWebhook({ url: message.url, body: task.body, timeoutMs, ca, signal: abort.signal }).then((result) => {
      inFlight.delete(flight);
      finish(result);
      if (result.ok) return void tasks.delete(task);
      log(`webhook ${message.eventType} ${message.eventId} send ${attempt}/3 to ${message.url} failed: ${result.error ?? 'unknown'}`);
      if (stopped) return;
      const next = attempt === 1 ? 2 : attempt === 2 ? 3 : undefined;
      if (next === undefined) return giveUp(task);
      schedule(task, next);
    });
    inFlight.add(flight);
  };

  // The next send is due at a fixed offset from the first; if the previous send overran that moment
  // (a 3-second timeout is long in a fast sandbox clock), it starts right away.
  const schedule = (task: Task, attempt: 2 | 3): void => {
    const dueAtMs = task.firstSentAtMs + (attempt === 2 ? RETRY_OFFSETS_MS[0] : RETRY_OFFSETS_MS[1]);
    const wait = dueAtMs - clock.nowMs();
    if (wait <= 0) return send(task, attempt);
    // Re-checked on firing because real timers may fire a millisecond early, which a fast clock magnifies.
    task.timer = clock.setTimeout(() => {
      task.timer = undefined;
      if (!stopped) schedule(task, attempt);
    }, wait);
  };

  const giveUp = (task: Task): void => {
    tasks.delete(task);
    log(`webhook ${task.message.eventType} ${task.message.eventId} given up after 3 failed sends`);
    try {
      task.message.onFinalFailure?.();
    } catch (error) {
      log(`webhook ${task.message.eventId} final-failure handler threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return {
    enqueue(message) {
      if (stopped) return;
      // Serialised once so that every send carries exactly the same bytes.
      const task: Task = { message, body: Buffer.from(JSON.stringify(message.body), 'utf8'), firstSentAtMs: 0, timer: undefined };
      tasks.add(task);
      send(task, 1);
    },
    deliveries: () => records.list(),
    pending: () => tasks.size,
    async stop() {
      stopped = true;
      for (const task of tasks) task.timer?.cancel();
      tasks.clear();
      abort.abort();
      await Promise.all([...inFlight]);
    },
  };
}
