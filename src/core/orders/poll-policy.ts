// When to ask the merchant about an order again (interface v1 §7.5: never every second; wait for webhooks
// and query at low frequency). Per order: 15 s after a change, doubling while nothing changes, up
// to 5 minutes; four times rarer when webhooks are live (they bring changes, polling only guards
// against a lost one). Orders in a final state are not polled at all.
import { classifyOrderState, classifyRefundState, isTerminalOrderState } from '../../shared/merchant/known-values';
import { backoffCeilingMs, type BackoffRule } from '../../shared/backoff';

export interface PollPolicy {
  readonly normal: BackoffRule;
  /** Used while a flag says webhooks are being received. */
  readonly withWebhooks: BackoffRule;
}

export const DEFAULT_POLL_POLICY: PollPolicy = {
  normal: { baseMs: 15_000, maxMs: 5 * 60_000 },
  withWebhooks: { baseMs: 60_000, maxMs: 20 * 60_000 },
};

/**
 * Whether an order still needs watching: not in a terminal state, and `completed` only while one
 * of its refunds is pending. An unknown state is watched (it is never taken for done or success).
 */
export function needsPolling(state: string, refundStates: readonly string[]): boolean {
  if (isTerminalOrderState(state)) return false;
  const c = classifyOrderState(state);
  if (c.kind === 'known' && c.value === 'completed') {
    return refundStates.some((raw) => {
      const refund = classifyRefundState(raw);
      return refund.kind === 'unknown' || refund.value === 'pending';
    });
  }
  return true;
}

/** Milliseconds to the next poll after `unchangedPolls` polls that saw nothing new (0 = just changed). */
export function pollDelayMs(policy: PollPolicy, webhooksLive: boolean, unchangedPolls: number): number {
  const rule = webhooksLive ? policy.withWebhooks : policy.normal;
  // No jitter: the interval itself is the rule (interface v1 §7.5), and each order already has its own phase.
  return backoffCeilingMs(rule, unchangedPolls + 1);
}
