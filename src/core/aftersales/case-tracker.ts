// Keeps the stored cases current. Every case detail the app receives (create answer, refresh, poll)
// is applied through applyAftersaleCase (0006: the case never moves back, each message once by
// messageRef), whatever else (the webhook inbox) applies the same case. Open cases are polled at low
// frequency (case-poll-policy.ts), rarer while webhooks are live, and within a per-minute budget so
// that polling many cases spreads out instead of eating the buyer's aftersaleRead quota.
import type { Database } from 'better-sqlite3';
import type { AftersaleCase } from '../../shared/merchant/aftersale';
import { applyAftersaleCase } from '../webhooks/aftersale-case-store';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantError } from '../merchant/merchant-errors';
import type { PollPolicy } from '../orders/poll-policy';
import type { Clock } from '../platform/clock';
import { CASE_POLL_POLICY, casePollDelayMs, DEFAULT_POLLS_PER_MINUTE, isCaseDone } from './case-poll-policy';
import { casesDueForPoll, ensureTracking, nextPollAt, pullInPolls, readSchedule, schedulePoll } from './tracking-store';

export interface CaseTrackerOptions {
  readonly db: Database;
  readonly client: Pick<MerchantClient, 'getAftersale'>;
  /** The client of scheduled polls nobody waits on: request-priority.ts 'casePoll'; default `client`. */
  readonly pollClient?: Pick<MerchantClient, 'getAftersale'>;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly policy?: PollPolicy;
  /** Whether webhooks are being received (polling then becomes rare). */
  readonly webhooksLive?: () => boolean;
  readonly pollsPerMinute?: number;
  /** A poll reached the merchant (the outbox then stops waiting out an outage). */
  readonly onReachable?: () => void;
}

export interface CaseApplyOutcome {
  readonly changed: boolean;
  readonly messagesAdded: number;
}

interface Stamp {
  state: string;
  updated_at: number;
  allowed_actions_json: string;
}

const WINDOW_MS = 60_000;

/** Stores case details and plans each case's next poll. */
export interface CaseTracker {
  /** Stores a case detail the merchant sent (create answer, GET) and plans the next poll. */
  apply(detail: AftersaleCase, polled: boolean): CaseApplyOutcome;
  /** GET /aftersales/{ref} and apply it; throws the client's typed errors. */
  refresh(ref: string, signal?: AbortSignal): Promise<CaseApplyOutcome>;
  /** Something happened on the case (the buyer wrote): a reply may follow, so look again soon. */
  soon(ref: string): void;
  /** Polls the cases that are due, within the per-minute budget; returns how many were polled. */
  pollDue(signal?: AbortSignal): Promise<number>;
  /** Core-clock ms when polling can do something next (a due case, or the budget freeing up). */
  nextWakeMs(): number | null;
}

export function createCaseTracker(options: CaseTrackerOptions): CaseTracker {
  const { db, client, clock, logger } = options;
  const policy = options.policy ?? CASE_POLL_POLICY;
  const webhooksLive = options.webhooksLive ?? (() => false);
  const budget = options.pollsPerMinute ?? DEFAULT_POLLS_PER_MINUTE;
  const pollTimes: number[] = [];
  let wasLive = false;
  const stamp = db.prepare<[string], Stamp>('SELECT state, updated_at, allowed_actions_json FROM aftersale_cases WHERE platform_case_ref = ?');

  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);
  const at = (delayMs: number): number => Math.ceil((clock.nowMs() + delayMs) / 1000);

  /** Decides the next poll from what is stored now. */
  const reschedule = (ref: string, changed: boolean, polled: boolean): void => {
    const current = readSchedule(db, ref);
    if (current === null) return;
    const unchanged = changed ? 0 : current.unchangedPolls + (polled ? 1 : 0);
    const next = isCaseDone(current.state) ? null : at(casePollDelayMs(policy, webhooksLive(), unchanged));
    schedulePoll(db, ref, next, unchanged, polled ? nowSeconds() : null);
  };

  /** Stores a detail the merchant sent (create answer, GET) and plans the next poll. */
  const apply = (detail: AftersaleCase, polled: boolean): CaseApplyOutcome => {
    const before = stamp.get(detail.platformCaseRef);
    const result = applyAftersaleCase(db, detail, nowSeconds());
    ensureTracking(db, detail.platformCaseRef);
    const changed =
      before === undefined ||
      result.messagesAdded > 0 ||
      detail.updatedAt > before.updated_at ||
      (result.caseUpdated && (detail.state !== before.state || JSON.stringify(detail.allowedActions) !== before.allowed_actions_json));
    reschedule(detail.platformCaseRef, changed, polled);
    if (changed) logger.info('case changed', { platformCaseRef: detail.platformCaseRef, state: detail.state, messagesAdded: result.messagesAdded });
    return { changed, messagesAdded: result.messagesAdded };
  };

  /** GET /aftersales/{ref} and apply it. Throws the client's typed errors. */
  const pollClient = options.pollClient ?? client;
  const refresh = async (ref: string, signal?: AbortSignal, via: Pick<MerchantClient, 'getAftersale'> = client): Promise<CaseApplyOutcome> => {
    const { data } = await via.getAftersale(ref, signal);
    options.onReachable?.();
    if (data.platformCaseRef !== ref) throw new Error(`the merchant answered with case ${data.platformCaseRef} when asked for ${ref}`);
    return apply(data, true);
  };

  const budgetLeft = (): number => {
    const since = clock.nowMs() - WINDOW_MS;
    while (pollTimes.length > 0 && (pollTimes[0] ?? 0) <= since) pollTimes.shift();
    return Math.max(0, budget - pollTimes.length);
  };

  return {
    apply,
    refresh,
    /** Something happened on the case (the buyer wrote): a reply may follow, so look again soon. */
    soon(ref: string): void {
      reschedule(ref, true, false);
    },
    /** Polls the cases that are due, within the per-minute budget; returns how many were polled. */
    async pollDue(signal?: AbortSignal): Promise<number> {
      // While webhooks were live, polls were planned at the rare pace; without them, replies must not wait that long.
      const live = webhooksLive();
      if (wasLive && !live) {
        const pulled = pullInPolls(db, at(policy.normal.baseMs));
        if (pulled > 0) logger.info('webhooks no longer live: open cases are polled at the normal pace', { cases: pulled });
      }
      wasLive = live;
      const due = casesDueForPoll(db, nowSeconds(), budgetLeft());
      let polled = 0;
      for (const ref of due) {
        if (signal?.aborted === true) break;
        pollTimes.push(clock.nowMs());
        polled += 1;
        try {
          await refresh(ref, signal, pollClient);
        } catch (error) {
          // Not a change: back off as if nothing was seen, and try again later.
          reschedule(ref, false, true);
          if (error instanceof MerchantError) logger.info('case poll failed', { platformCaseRef: ref, error: error.message, requestId: error.requestId });
          else logger.warn('case poll failed unexpectedly', { platformCaseRef: ref, error: error instanceof Error ? logger.redact(error.message) : 'unknown' });
        }
      }
      return polled;
    },
    /** Core-clock ms when polling can do something next (a due case, or the budget freeing up). */
    nextWakeMs(): number | null {
      const dueAt = nextPollAt(db);
      if (dueAt === null) return null;
      const dueMs = dueAt * 1000;
      if (budgetLeft() > 0) return dueMs;
      return Math.max(dueMs, (pollTimes[0] ?? clock.nowMs()) + WINDOW_MS);
    },
  };
}

