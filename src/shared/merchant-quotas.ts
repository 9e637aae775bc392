// The limits of spec section 8 as designed in docs/contract.md section 8: one table, so that the
// sandbox's limiter and the app's client-side quota model read the same published numbers.
import { MERCHANT_ERROR } from './merchant-error-codes';

export type QuotaGroup =
  | 'account'
  | 'catalog'
  | 'subscriptions'
  | 'orderCreate'
  | 'orderRead'
  | 'verification'
  | 'orderAction'
  | 'aftersaleWrite'
  | 'aftersaleRead';

export type CooldownKind = 'verification' | 'cancel' | 'refund';

export type QuotaCode = typeof MERCHANT_ERROR.RATE_LIMITED;
export type CooldownCode = (typeof MERCHANT_ERROR)['OTP_ATTEMPTS_LIMITED' | 'CANCELLATION_ATTEMPTS_LIMITED' | 'REFUND_ATTEMPTS_LIMITED'];

export interface QuotaRule {
  /** At most this many accepted requests in any 60 s of sandbox time. */
  readonly perMinute: number;
  /** At most this many accepted requests in any 1 s of sandbox time; absent when the group has no burst rule. */
  readonly burst?: number;
}

export interface CooldownRule {
  /** One accepted attempt per order and kind within this much sandbox time. */
  readonly periodMs: number;
  readonly code: CooldownCode;
}

export const MINUTE_WINDOW_MS = 60_000;
export const BURST_WINDOW_MS = 1_000;

/** Code for every quota and burst refusal (interface v1 §7.2 RATE_LIMITED). */
export const QUOTA_CODE: QuotaCode = MERCHANT_ERROR.RATE_LIMITED;

export const GROUP_QUOTAS: Readonly<Record<QuotaGroup, QuotaRule>> = {
  account: { perMinute: 60 },
  catalog: { perMinute: 120 },
  subscriptions: { perMinute: 30 },
  orderCreate: { perMinute: 120, burst: 10 },
  orderRead: { perMinute: 120 },
  verification: { perMinute: 10 },
  orderAction: { perMinute: 30 },
  aftersaleWrite: { perMinute: 30 },
  aftersaleRead: { perMinute: 120 },
};

/** Every endpoint of an account together. */
export const TOTAL_QUOTA: QuotaRule = { perMinute: 600, burst: 30 };

export const COOLDOWNS: Readonly<Record<CooldownKind, CooldownRule>> = {
  verification: { periodMs: 30_000, code: MERCHANT_ERROR.OTP_ATTEMPTS_LIMITED },
  cancel: { periodMs: 10_000, code: MERCHANT_ERROR.CANCELLATION_ATTEMPTS_LIMITED },
  refund: { periodMs: 10_000, code: MERCHANT_ERROR.REFUND_ATTEMPTS_LIMITED },
};
