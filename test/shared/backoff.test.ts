// The one backoff: the ceiling doubles from the base to the cap, a wait lies between half the ceiling
// and the ceiling, and every user's waits are this backoff's.
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLL_POLICY, pollDelayMs } from '../../src/core/orders/poll-policy';
import { casePollDelayMs, CASE_POLL_POLICY } from '../../src/core/aftersales/case-poll-policy';
import { MerchantApiError } from '../../src/core/merchant/merchant-errors';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../../src/core/merchant/retry-policy';
import { retryDelaySeconds } from '../../src/core/webhooks/product-watch';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../../src/core/webhooks/tunnels/restart-backoff';
import { backoffCeilingMs, backoffMs, type BackoffRule } from '../../src/shared/backoff';

const RULE: BackoffRule = { baseMs: 1_000, maxMs: 30_000 };

describe('backoff', () => {
  it('doubles the ceiling from the base after each failure, up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50, 10_000].map((n) => backoffCeilingMs(RULE, n))).toEqual([1_000, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('waits between half the ceiling and the ceiling, in whole ms', () => {
    for (const failures of [1, 2, 3, 6, 40]) {
      const cap = backoffCeilingMs(RULE, failures);
      expect(backoffMs(RULE, failures, () => 0)).toBe(cap / 2);
      expect(backoffMs(RULE, failures, () => 0.999_999)).toBe(cap);
      expect(backoffMs(RULE, failures, () => 0.5)).toBe(Math.round(cap * 0.75));
      for (let i = 0; i < 200; i += 1) {
        const wait = backoffMs(RULE, failures);
        expect(Number.isInteger(wait)).toBe(true);
        expect(wait).toBeGreaterThanOrEqual(cap / 2);
        expect(wait).toBeLessThanOrEqual(cap);
      }
    }
  });

  it('spreads the waits of many failures over the range (jitter), not one value', () => {
    const waits = new Set(Array.from({ length: 200 }, () => backoffMs(RULE, 4)));
    expect(waits.size).toBeGreaterThan(50);
  });

  it('is what the request sender waits between retries, with Retry-After as a floor', () => {
    const rule = { baseMs: DEFAULT_RETRY_POLICY.baseDelayMs, maxMs: DEFAULT_RETRY_POLICY.maxDelayMs };
    const error = new MerchantApiError(503, 503001, null, null);
    for (const attempt of [1, 2, 5, 9]) {
      for (const r of [0, 0.3, 0.999]) expect(retryDelayMs(error, attempt, DEFAULT_RETRY_POLICY, () => r)).toBe(backoffMs(rule, attempt, () => r));
    }
    expect(retryDelayMs(new MerchantApiError(429, 429001, null, 40_000), 1, DEFAULT_RETRY_POLICY, () => 0)).toBe(40_000);
  });

  it('gives the order and case polls its ceiling, without jitter', () => {
    for (const unchanged of [0, 1, 2, 5, 30]) {
      expect(pollDelayMs(DEFAULT_POLL_POLICY, false, unchanged)).toBe(backoffCeilingMs(DEFAULT_POLL_POLICY.normal, unchanged + 1));
      expect(casePollDelayMs(CASE_POLL_POLICY, true, unchanged)).toBe(backoffCeilingMs(CASE_POLL_POLICY.withWebhooks, unchanged + 1));
    }
    expect([0, 1, 2, 3, 4, 5].map((n) => pollDelayMs(DEFAULT_POLL_POLICY, false, n))).toEqual([15_000, 30_000, 60_000, 120_000, 240_000, 300_000]);
  });

  it('paces the tunnel restarts and the watch subscriptions', () => {
    const restart = { baseMs: DEFAULT_BACKOFF.initialMs, maxMs: DEFAULT_BACKOFF.maxMs };
    for (const attempt of [0, 1, 4, 12]) {
      for (const r of [0, 0.5, 0.999]) expect(backoffDelayMs(DEFAULT_BACKOFF, attempt, () => r)).toBe(backoffMs(restart, attempt + 1, () => r));
    }
    expect([0, 1, 3, 7, 20].map((n) => retryDelaySeconds(n, null))).toEqual([30, 60, 240, 3600, 3600]);
    expect(retryDelaySeconds(0, 90_000)).toBe(90);
  });
});
