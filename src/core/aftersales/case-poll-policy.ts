// When to read an open case's detail again (interface v1 §7.5: never every second; wait for webhooks and then
// query at low frequency). Per case: 15 s after a change (ours or the merchant's), doubling while
// nothing changes, up to 5 minutes; with webhooks live, 5 minutes doubling up to an hour, since they
// bring the merchant's replies and polling only guards against a lost one. Cases the merchant
// resolved or closed are not polled; an unknown state is (it is never taken for resolved).
import { classifyCaseState } from '../../shared/merchant/known-values';
import { pollDelayMs, type PollPolicy } from '../orders/poll-policy';

export const CASE_POLL_POLICY: PollPolicy = {
  normal: { baseMs: 15_000, maxMs: 5 * 60_000 },
  withWebhooks: { baseMs: 5 * 60_000, maxMs: 60 * 60_000 },
};

/** At most this many case reads per minute from polling: a quarter of aftersaleRead (120/min), the rest left for the buyer. */
export const DEFAULT_POLLS_PER_MINUTE = 30;

/** The states in which a case is finished (contract §9.3); SQL filters use the same two. */
export const DONE_CASE_STATES = ['resolved', 'closed'] as const;

/** Whether a case is finished: only the known `resolved` and `closed`. Unknown states are not. */
export function isCaseDone(state: string): boolean {
  const c = classifyCaseState(state);
  return c.kind === 'known' && (c.value === 'resolved' || c.value === 'closed');
}

/** Milliseconds to the next poll after `unchangedPolls` polls that saw nothing new (0 = just changed). */
export function casePollDelayMs(policy: PollPolicy, webhooksLive: boolean, unchangedPolls: number): number {
  // The orders' schedule with the cases' numbers: one doubling rule for both.
  return pollDelayMs(policy, webhooksLive, unchangedPolls);
}
