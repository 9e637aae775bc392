// The after-sales side of one merchant connection (built with the other merchant services in
// create-core.ts): opening cases, the message outbox, keeping open cases current, and one worker
// loop that sends due messages, settles unresolved creates and polls due cases. It sleeps until the
// next due item (never less than 250 ms, never more than a minute), and wakes at once when poked.
import type { Database } from 'better-sqlite3';
import type { CaseDraft, MessageDraft } from '../../shared/aftersale-rules';
import { isActionAllowed } from '../../shared/merchant/known-values';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import type { BackoffRule } from '../../shared/backoff';
import type { OrderTracker } from '../orders/order-tracker';
import type { PollPolicy } from '../orders/poll-policy';
import type { Clock } from '../platform/clock';
import { createWorkerLoop, type WorkerPause } from '../platform/worker-loop';
import { AftersaleNotFoundError, CaseActionNotAllowedError } from './aftersale-errors';
import { createCaseOpener } from './case-opener';
import { createCaseTracker } from './case-tracker';
import { validateCase, validateMessage } from './case-validation';
import { createMessageOutbox } from './message-outbox';
import { newClientMessageRef } from './message-ref';
import { enqueueMessage } from './outbox-store';
import { markCaseRead } from './tracking-store';

export interface AftersaleServiceOptions {
  readonly db: Database;
  readonly client: Pick<MerchantClient, 'createAftersale' | 'getAftersale' | 'postAftersaleMessage'>;
  /** The client of the case polls nobody waits on (request-priority.ts 'casePoll'); default `client`. */
  readonly pollClient?: Pick<MerchantClient, 'getAftersale'>;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  /** The orders tracker: an order is read again around a case create (its allowedActions change). */
  readonly orders: Pick<OrderTracker, 'refresh'>;
  readonly webhooksLive?: () => boolean;
  /** The merchant's refusals and Retry-After holds: no passes meanwhile. */
  readonly pause?: WorkerPause;
  readonly pollPolicy?: PollPolicy;
  readonly pollsPerMinute?: number;
  /** Message retries after merchant-side failures; and while the merchant is unreachable. */
  readonly retry?: BackoffRule;
  readonly offline?: BackoffRule;
  /** Retries of a case create whose outcome is unknown. */
  readonly openRetry?: BackoffRule;
}

const MIN_WAIT_MS = 250;
const MAX_WAIT_MS = 60_000;

/** After-sales cases of the connection: opening, messages, polling, as one worker. */
export interface AftersaleService {
  /** Opens a case from an order (checked first); resolves with the case ref once the merchant has it. */
  open(draft: CaseDraft & {
      clientOrderRef: string;
  }): Promise<string>;
  /** Queues a message (its ref stored before anything is sent) and wakes the outbox; returns the ref. */
  send(platformCaseRef: string, draft: MessageDraft): string;
  /** Reads the case from the merchant now (the buyer asked); waiting messages go too once it answers. */
  refresh(platformCaseRef: string): Promise<void>;
  /** The buyer has the chat open: everything stored so far is read. */
  markRead(platformCaseRef: string): void;
  /** Start-up recovery: interrupted sends and creates are sent again (same ref, same content). */
  recover(): {
      messages: number;
      opens: number;
  };
  /** One pass over what is due now (tests; the loop runs the same). */
  runOnce(): Promise<void>;
  /** Something to do now: a message queued, the network back. */
  poke(): void;
  /** Runs the outbox, the case opener and case polling until stop(). */
  start(): void;
  /** Stops the loop and waits for the pass in flight. */
  stop(): Promise<void>;
}

export function createAftersaleService(options: AftersaleServiceOptions): AftersaleService {
  const { db, clock, logger } = options;
  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);

  const tracker = createCaseTracker({
    db,
    client: options.client,
    ...(options.pollClient ? { pollClient: options.pollClient } : {}),
    clock,
    logger,
    ...(options.pollPolicy ? { policy: options.pollPolicy } : {}),
    ...(options.webhooksLive ? { webhooksLive: options.webhooksLive } : {}),
    ...(options.pollsPerMinute === undefined ? {} : { pollsPerMinute: options.pollsPerMinute }),
    onReachable: () => outbox.reachable(),
  });
  const outbox = createMessageOutbox({
    db,
    client: options.client,
    clock,
    logger,
    tracker,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.offline ? { offline: options.offline } : {}),
  });
  const opener = createCaseOpener({
    db,
    client: options.client,
    clock,
    logger,
    cases: tracker,
    orders: options.orders,
    ...(options.openRetry ? { retry: options.openRetry } : {}),
  });

  const caseFacts = db.prepare<[string], { state: string; allowed_actions_json: string }>('SELECT state, allowed_actions_json FROM aftersale_cases WHERE platform_case_ref = ?');

  const requireCase = (ref: string): { state: string; allowedActions: string[] } => {
    const row = caseFacts.get(ref);
    if (row === undefined) throw new AftersaleNotFoundError(`no after-sales case ${ref} here`);
    return { state: row.state, allowedActions: JSON.parse(row.allowed_actions_json) as string[] };
  };

  const poke = (): void => {
    outbox.poke();
    loop.poke();
  };

  /** One pass of everything due: messages first (the buyer is waiting), then creates, then polls. */
  const runOnce = async (signal?: AbortSignal): Promise<void> => {
    await outbox.runOnce(signal);
    await opener.resolveDue(signal);
    await tracker.pollDue(signal);
  };

  // Until the first due message, create or poll: at least 250 ms, at most a minute.
  const loop = createWorkerLoop({
    clock,
    logger,
    name: 'after-sales',
    ...(options.pause ? { pause: options.pause } : {}),
    pass: (signal) => runOnce(signal),
    waitMs: () => {
      const nowMs = clock.nowMs();
      const next = [outbox.nextWakeMs(), opener.nextWakeMs(), tracker.nextWakeMs()].filter((at): at is number => at !== null);
      return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.min(nowMs + MAX_WAIT_MS, ...next) - nowMs));
    },
  });

  return {
    /** Opens a case from an order (checked first); resolves with the case ref once the merchant has it. */
    async open(draft: CaseDraft & { clientOrderRef: string }): Promise<string> {
      const content = validateCase(draft);
      const ref = await opener.open(draft.clientOrderRef, content);
      loop.poke();
      return ref;
    },

    /** Queues a message (its ref stored before anything is sent) and wakes the outbox; returns the ref. */
    send(platformCaseRef: string, draft: MessageDraft): string {
      const content = validateMessage(draft);
      const found = requireCase(platformCaseRef);
      if (found.state === 'closed') throw new CaseActionNotAllowedError(`case ${platformCaseRef} is closed: the merchant takes no more messages on it`);
      if (!isActionAllowed(found.allowedActions, 'message')) {
        throw new CaseActionNotAllowedError(`the merchant takes no messages on case ${platformCaseRef} in its current state (${found.state})`);
      }
      const clientMessageRef = newClientMessageRef();
      enqueueMessage(db, { clientMessageRef, platformCaseRef, ...content }, nowSeconds());
      logger.info('message queued', { clientMessageRef, platformCaseRef, images: content.images.length });
      poke();
      return clientMessageRef;
    },

    /** Reads the case from the merchant now (the buyer asked); waiting messages go too once it answers. */
    async refresh(platformCaseRef: string): Promise<void> {
      requireCase(platformCaseRef);
      await tracker.refresh(platformCaseRef);
      loop.poke();
    },

    /** The buyer has the chat open: everything stored so far is read. */
    markRead(platformCaseRef: string): void {
      requireCase(platformCaseRef);
      markCaseRead(db, platformCaseRef, nowSeconds());
    },

    /** Start-up recovery: interrupted sends and creates are sent again (same ref, same content). */
    recover(): { messages: number; opens: number } {
      return { messages: outbox.recover(), opens: opener.recover() };
    },

    /** One pass over what is due now (tests; the loop runs the same). */
    runOnce: (): Promise<void> => runOnce(),

    /** Something to do now: a message queued, the network back. */
    poke,

    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}

