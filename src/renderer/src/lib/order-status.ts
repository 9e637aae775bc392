// One badge per order from two sources: our intent (queued, sending, …) until the merchant holds the
// order, then the merchant's state. An unknown value is shown as unknown with its raw text, never
// as success (isTerminalSuccess answers false for it).
import { classifyOrderState, isTerminalSuccess } from '../../../shared/merchant/known-values';

export const INTENT_STATUSES = ['queued', 'sending', 'unknown', 'accepted', 'rejected', 'needs_confirmation', 'price_changed', 'unavailable', 'withdrawing', 'withdrawn', 'needs_key', 'account_suspended', 'access_denied', 'needs_template', 'merchant_failing'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export type StatusTone = 'success' | 'processing' | 'warning' | 'error' | 'default';

export interface OrderStatusView {
  /** i18n key of the label; `status.unknownValue` when the value is not known. */
  readonly key: string;
  readonly tone: StatusTone;
  /** The raw value when it is not one this build knows. */
  readonly raw: string | null;
  readonly success: boolean;
}

const STATE_TONES: Record<string, StatusTone> = {
  pending: 'processing',
  processing: 'processing',
  verifying: 'warning',
  completed: 'success',
  failed: 'error',
  cancelled: 'default',
  refunded: 'default',
};

const INTENT_TONES: Record<IntentStatus, StatusTone> = {
  queued: 'warning',
  sending: 'processing',
  // Sent, but no answer: the merchant may or may not hold it. Never success.
  unknown: 'warning',
  accepted: 'processing',
  rejected: 'error',
  needs_confirmation: 'warning',
  // Parked by the price guard before sending: waits for the buyer, nothing charged.
  price_changed: 'warning',
  unavailable: 'warning',
  // Withdraw asked while the outcome was unknown: checked with the merchant, never sent again.
  withdrawing: 'processing',
  withdrawn: 'default',
  // The merchant refused our access (401/403): kept, sent by itself once access works; the buyer acts.
  needs_key: 'error',
  account_suspended: 'error',
  access_denied: 'error',
  // Kept while the merchant is away and no order form is cached: sent once the form is checked.
  needs_template: 'warning',
  // The merchant answered 500 too often (contract §7.12): kept, nothing sent until the buyer retries.
  merchant_failing: 'error',
};

function isIntentStatus(value: string): value is IntentStatus {
  return (INTENT_STATUSES as readonly string[]).includes(value);
}

export function orderStatusView(intentStatus: string, state: string | null): OrderStatusView {
  if (state !== null) {
    const c = classifyOrderState(state);
    if (c.kind === 'unknown') return { key: 'status.unknownValue', tone: 'warning', raw: c.raw, success: false };
    return { key: `orderState.${c.value}`, tone: STATE_TONES[c.value] ?? 'default', raw: null, success: isTerminalSuccess(c) };
  }
  if (!isIntentStatus(intentStatus)) return { key: 'status.unknownValue', tone: 'warning', raw: intentStatus, success: false };
  return { key: `intent.${intentStatus}`, tone: INTENT_TONES[intentStatus], raw: null, success: false };
}

/** The part of the offline queue still waiting on us or the network. */
export function isQueued(intentStatus: string): boolean {
  return ['queued', 'sending', 'unknown', 'needs_confirmation', 'price_changed', 'unavailable', 'withdrawing', 'needs_key', 'account_suspended', 'access_denied', 'needs_template', 'merchant_failing'].includes(intentStatus);
}

/**
 * The merchant asks for a code again after one was sent: contract §7.6 says a wrong code brings the
 * order back from `processing` to `verifying`. Read from the states the order passed through.
 */
export function codeWasRejected(order: { readonly state: string | null; readonly stateHistory: readonly { readonly state: string }[] }): boolean {
  if (order.state !== 'verifying') return false;
  const states = order.stateHistory.map((step) => step.state);
  const last = states.length - 1;
  if (states[last] !== 'verifying') return false;
  const firstVerifying = states.indexOf('verifying');
  return states.slice(firstVerifying, last).includes('processing');
}
