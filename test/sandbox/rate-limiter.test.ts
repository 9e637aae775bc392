// Unit tests of the sandbox's rate limiter against docs/contract.md section 8, on a hand-moved clock
// so that every window boundary is hit to the millisecond.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/sandbox/clock';
import type { ManualClock } from '../../src/sandbox/clock';
import { createRateLimiter } from '../../src/sandbox/limits/rate-limiter';
import type { QuotaGroup, RateCheck, RateDecision, RateLimiter } from '../../src/sandbox/limits/rate-limiter';

// Whole seconds, so that Unix-second header values are easy to state.
const T0 = 1_790_000_000_000;
const T0_SECONDS = T0 / 1000;

function setup(): { clock: ManualClock; limiter: RateLimiter } {
  const clock = createManualClock(T0);
  return { clock, limiter: createRateLimiter(clock) };
}

function req(group: QuotaGroup, cooldown?: RateCheck['cooldown'], accountKey = 'acct-a'): RateCheck {
  return cooldown ? { accountKey, group, cooldown } : { accountKey, group };
}

function expectAllowed(decision: RateDecision): Extract<RateDecision, { allowed: true }> {
  if (!decision.allowed) throw new Error(`expected acceptance, got ${decision.code} (Retry-After ${decision.retryAfterSeconds})`);
  return decision;
}

function expectRefused(decision: RateDecision): Extract<RateDecision, { allowed: false }> {
  if (decision.allowed) throw new Error('expected a refusal, got acceptance');
  return decision;
}

describe('group quota (sliding 60 s)', () => {
  it('accepts exactly 120 catalog requests in a minute and the 121st once the oldest has left', () => {
    const { clock, limiter } = setup();
    // 100 ms apart stays below the total burst of 30/s.
    for (let i = 0; i < 120; i += 1) {
      expectAllowed(limiter.check(req('catalog')));
      clock.advance(100);
    }
    // Now T0 + 12 s; the oldest (T0) leaves at T0 + 60 s.
    const refused = expectRefused(limiter.check(req('catalog')));
    expect(refused.code).toBe(429001);
    expect(refused.retryAfterSeconds).toBe(48);
    expect(refused.headers).toEqual({ limit: 120, remaining: 0, resetAt: T0_SECONDS + 60 });

    clock.advance(47_999);
    const lastMs = expectRefused(limiter.check(req('catalog')));
    expect(lastMs.retryAfterSeconds).toBe(1);

    clock.advance(1);
    const accepted = expectAllowed(limiter.check(req('catalog')));
    // The oldest left and this one took its place; the next oldest (T0 + 0.1 s) leaves at T0 + 60.1 s.
    expect(accepted.headers).toEqual({ limit: 120, remaining: 0, resetAt: T0_SECONDS + 61 });
    const again = expectRefused(limiter.check(req('catalog')));
    expect(again.code).toBe(429001);
    expect(again.retryAfterSeconds).toBe(1);
  });

  it('applies each group its own quota', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 60; i += 1) {
      expectAllowed(limiter.check(req('account')));
      clock.advance(100);
    }
    expect(expectRefused(limiter.check(req('account'))).headers.limit).toBe(60);
    // Another group of the same account is not touched by the account group's quota.
    expect(expectAllowed(limiter.check(req('catalog'))).headers).toEqual({ limit: 120, remaining: 119, resetAt: T0_SECONDS + 66 });
  });
});

describe('total quota', () => {
  it('accepts 600 requests a minute across groups and refuses the 601st in an untouched group', () => {
    const { clock, limiter } = setup();
    // The group quotas add up to 600; round-robin keeps orderCreate below its burst of 10.
    const budget = new Map<QuotaGroup, number>([
      ['catalog', 120],
      ['orderCreate', 120],
      ['orderRead', 120],
      ['aftersaleRead', 120],
      ['account', 60],
      ['subscriptions', 30],
      ['orderAction', 30],
    ]);
    let sent = 0;
    while (sent < 600) {
      for (const [group, left] of budget) {
        if (left === 0) continue;
        expectAllowed(limiter.check(req(group)));
        budget.set(group, left - 1);
        sent += 1;
        clock.advance(50);
      }
    }
    // Now T0 + 30 s; nothing was ever sent in aftersaleWrite, only the total refuses.
    const refused = expectRefused(limiter.check(req('aftersaleWrite')));
    expect(refused.code).toBe(429001);
    expect(refused.retryAfterSeconds).toBe(30);
    expect(refused.headers).toEqual({ limit: 600, remaining: 0, resetAt: T0_SECONDS + 60 });

    clock.advance(30_000);
    expect(expectAllowed(limiter.check(req('aftersaleWrite'))).headers).toEqual({
      limit: 30,
      remaining: 29,
      resetAt: T0_SECONDS + 120,
    });
  });

  it('allows a burst of at most 30 in one second across groups', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 15; i += 1) expectAllowed(limiter.check(req('catalog')));
    for (let i = 0; i < 15; i += 1) expectAllowed(limiter.check(req('orderRead')));
    const refused = expectRefused(limiter.check(req('aftersaleRead')));
    expect(refused.code).toBe(429001);
    expect(refused.retryAfterSeconds).toBe(1);
    expect(refused.headers).toEqual({ limit: 30, remaining: 0, resetAt: T0_SECONDS + 1 });

    clock.advance(999);
    expectRefused(limiter.check(req('aftersaleRead')));
    clock.advance(1);
    expectAllowed(limiter.check(req('aftersaleRead')));
  });

  it('slides the burst window rather than resetting it on whole seconds', () => {
    const { clock, limiter } = setup();
    clock.advance(900);
    for (let i = 0; i < 30; i += 1) expectAllowed(limiter.check(req('catalog')));
    // A new calendar second has started, but all 30 are still within the last second.
    clock.advance(200);
    expectRefused(limiter.check(req('catalog')));
    clock.advance(800);
    expectAllowed(limiter.check(req('catalog')));
  });
});

describe('orderCreate burst', () => {
  it('allows 10 creates in one second, then refuses with 429001 while other groups go on', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 10; i += 1) expectAllowed(limiter.check(req('orderCreate')));
    const refused = expectRefused(limiter.check(req('orderCreate')));
    expect(refused.code).toBe(429001);
    expect(refused.retryAfterSeconds).toBe(1);
    expect(refused.headers).toEqual({ limit: 10, remaining: 0, resetAt: T0_SECONDS + 1 });

    expectAllowed(limiter.check(req('orderRead')));
    clock.advance(1000);
    expect(expectAllowed(limiter.check(req('orderCreate'))).headers).toEqual({
      limit: 120,
      remaining: 109,
      resetAt: T0_SECONDS + 60,
    });
  });

  it('reports the group burst when it ties with the total burst', () => {
    const { limiter } = setup();
    for (let i = 0; i < 20; i += 1) expectAllowed(limiter.check(req('catalog')));
    for (let i = 0; i < 10; i += 1) expectAllowed(limiter.check(req('orderCreate')));
    const refused = expectRefused(limiter.check(req('orderCreate')));
    expect(refused.headers.limit).toBe(10);
  });
});

describe('per-order cooldowns', () => {
  it('allows one verification code per order per 30 s with 429110', () => {
    const { clock, limiter } = setup();
    const otp = (orderRef: string): RateCheck => req('verification', { kind: 'verification', orderRef });
    expectAllowed(limiter.check(otp('o-1')));
    clock.advance(500);
    const refused = expectRefused(limiter.check(otp('o-1')));
    expect(refused.code).toBe(429110);
    expect(refused.retryAfterSeconds).toBe(30); // 29.5 s rounded up
    expect(refused.headers).toEqual({ limit: 1, remaining: 0, resetAt: T0_SECONDS + 30 });

    // Another order is not affected.
    expectAllowed(limiter.check(otp('o-2')));

    clock.advance(29_000);
    expect(expectRefused(limiter.check(otp('o-1'))).retryAfterSeconds).toBe(1);
    clock.advance(500);
    expectAllowed(limiter.check(otp('o-1')));
  });

  it('keeps cancel and refund cooldowns apart, each 10 s with its own code', () => {
    const { clock, limiter } = setup();
    const cancel = (orderRef: string): RateCheck => req('orderAction', { kind: 'cancel', orderRef });
    const refund = (orderRef: string): RateCheck => req('orderAction', { kind: 'refund', orderRef });
    expectAllowed(limiter.check(cancel('o-1')));
    expectAllowed(limiter.check(refund('o-1')));

    clock.advance(2_000);
    const cancelAgain = expectRefused(limiter.check(cancel('o-1')));
    expect(cancelAgain.code).toBe(429111);
    expect(cancelAgain.retryAfterSeconds).toBe(8);
    const refundAgain = expectRefused(limiter.check(refund('o-1')));
    expect(refundAgain.code).toBe(429112);
    expect(refundAgain.retryAfterSeconds).toBe(8);
    expectAllowed(limiter.check(cancel('o-2')));

    clock.advance(8_000);
    expectAllowed(limiter.check(cancel('o-1')));
    expectAllowed(limiter.check(refund('o-1')));
  });

  it('does not let a refused attempt extend the cooldown', () => {
    const { clock, limiter } = setup();
    const cancel = req('orderAction', { kind: 'cancel', orderRef: 'o-1' });
    expectAllowed(limiter.check(cancel));
    clock.advance(5_000);
    expect(expectRefused(limiter.check(cancel)).retryAfterSeconds).toBe(5);
    clock.advance(5_000);
    expectAllowed(limiter.check(cancel));
  });

  it('keeps working after many thousands of orders (old cooldowns are pruned, not mistaken)', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 20_000; i += 1) {
      expectAllowed(limiter.check(req('orderAction', { kind: 'refund', orderRef: `o-${i}` })));
      // 2.1 s apart stays within 30 per minute.
      clock.advance(2_100);
      // Whatever pruning ran on that insertion left the still-running cooldown alone.
      expect(expectRefused(limiter.check(req('orderAction', { kind: 'refund', orderRef: `o-${i}` }))).code).toBe(429112);
    }
    // The newest order is still cooling down (accepted 2.1 s ago), the oldest long since is not.
    const newest = expectRefused(limiter.check(req('orderAction', { kind: 'refund', orderRef: 'o-19999' })));
    expect(newest.code).toBe(429112);
    expect(newest.retryAfterSeconds).toBe(8);
    expectAllowed(limiter.check(req('orderAction', { kind: 'refund', orderRef: 'o-0' })));
  });
});

describe('refused requests', () => {
  it('are never counted in any window', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 10; i += 1) expectAllowed(limiter.check(req('orderCreate')));
    for (let i = 0; i < 100; i += 1) expectRefused(limiter.check(req('orderCreate')));
    clock.advance(1_000);
    // Had the refusals counted, the total burst (30) and the group burst would both refuse here.
    for (let i = 0; i < 10; i += 1) expectAllowed(limiter.check(req('orderCreate')));
    clock.advance(1_000);
    expect(expectAllowed(limiter.check(req('orderCreate'))).headers.remaining).toBe(120 - 21);
  });

  it('refused by a cooldown do not use the group quota', () => {
    const { clock, limiter } = setup();
    const otp = (orderRef: string): RateCheck => req('verification', { kind: 'verification', orderRef });
    expectAllowed(limiter.check(otp('o-1')));
    for (let i = 0; i < 20; i += 1) {
      clock.advance(100);
      expect(expectRefused(limiter.check(otp('o-1'))).code).toBe(429110);
    }
    expect(expectAllowed(limiter.check(otp('o-2'))).headers.remaining).toBe(8);
  });
});

describe('accounts', () => {
  it('are isolated from each other', () => {
    const { limiter } = setup();
    for (let i = 0; i < 10; i += 1) expectAllowed(limiter.check(req('orderCreate', undefined, 'acct-a')));
    expectAllowed(limiter.check(req('orderAction', { kind: 'cancel', orderRef: 'o-1' }, 'acct-a')));
    expectRefused(limiter.check(req('orderCreate', undefined, 'acct-a')));
    expectRefused(limiter.check(req('orderAction', { kind: 'cancel', orderRef: 'o-1' }, 'acct-a')));

    expect(expectAllowed(limiter.check(req('orderCreate', undefined, 'acct-b'))).headers.remaining).toBe(119);
    expectAllowed(limiter.check(req('orderAction', { kind: 'cancel', orderRef: 'o-1' }, 'acct-b')));
  });

  it('are forgotten by reset()', () => {
    const { limiter } = setup();
    for (let i = 0; i < 10; i += 1) expectAllowed(limiter.check(req('orderCreate')));
    expectRefused(limiter.check(req('orderCreate')));
    limiter.reset();
    expect(expectAllowed(limiter.check(req('orderCreate'))).headers.remaining).toBe(119);
  });

  it('keep their state when many other accounts come and go', () => {
    const { clock, limiter } = setup();
    expectAllowed(limiter.check(req('orderAction', { kind: 'cancel', orderRef: 'o-1' }, 'acct-kept')));
    for (let i = 0; i < 3_000; i += 1) expectAllowed(limiter.check(req('catalog', undefined, `acct-${i}`)));
    clock.advance(1_000);
    expect(expectRefused(limiter.check(req('orderAction', { kind: 'cancel', orderRef: 'o-1' }, 'acct-kept'))).code).toBe(429111);
    clock.advance(61_000);
    for (let i = 3_000; i < 6_000; i += 1) expectAllowed(limiter.check(req('catalog', undefined, `acct-${i}`)));
    expect(expectAllowed(limiter.check(req('catalog', undefined, 'acct-0'))).headers.remaining).toBe(119);
  });
});

describe('headers', () => {
  it('give the group quota, what is left of it and when its oldest counted request leaves', () => {
    // A start that is not on a whole second shows the rounding: reset up, "now" down.
    const clock = createManualClock(T0 + 250);
    const limiter = createRateLimiter(clock);
    expect(expectAllowed(limiter.check(req('catalog'))).headers).toEqual({ limit: 120, remaining: 119, resetAt: T0_SECONDS + 61 });
    clock.advance(30_000);
    expect(expectAllowed(limiter.check(req('catalog'))).headers).toEqual({ limit: 120, remaining: 118, resetAt: T0_SECONDS + 61 });
    clock.advance(30_000);
    // The first has left the window (T0 + 60.25 s); the second leaves at T0 + 90.25 s.
    expect(expectAllowed(limiter.check(req('catalog'))).headers).toEqual({ limit: 120, remaining: 118, resetAt: T0_SECONDS + 91 });
    expect(expectAllowed(limiter.check(req('orderAction'))).headers).toEqual({ limit: 30, remaining: 29, resetAt: T0_SECONDS + 121 });
    expect(expectAllowed(limiter.check(req('verification'))).headers.limit).toBe(10);
    expect(expectAllowed(limiter.check(req('subscriptions'))).headers.limit).toBe(30);
    expect(expectAllowed(limiter.check(req('aftersaleWrite'))).headers.limit).toBe(30);
    expect(expectAllowed(limiter.check(req('aftersaleRead'))).headers.limit).toBe(120);
    expect(expectAllowed(limiter.check(req('orderRead'))).headers.limit).toBe(120);
    expect(expectAllowed(limiter.check(req('account'))).headers.limit).toBe(60);
  });
});

describe('strictest rule wins', () => {
  const otp = (orderRef: string): RateCheck => req('verification', { kind: 'verification', orderRef });

  it('reports the quota when its wait is longer than the cooldown', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 10; i += 1) {
      expectAllowed(limiter.check(otp(`o-${i}`)));
      clock.advance(1_000);
    }
    // T0 + 10 s: o-9's cooldown ends at T0 + 39 s, the group quota frees a slot at T0 + 60 s.
    const refused = expectRefused(limiter.check(otp('o-9')));
    expect(refused.code).toBe(429001);
    expect(refused.retryAfterSeconds).toBe(50);
    expect(refused.headers).toEqual({ limit: 10, remaining: 0, resetAt: T0_SECONDS + 60 });
  });

  it('reports the cooldown when its wait is longer than the quota', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 9; i += 1) {
      expectAllowed(limiter.check(otp(`o-${i}`)));
      clock.advance(1_000);
    }
    clock.advance(31_000);
    expectAllowed(limiter.check(otp('o-9'))); // T0 + 40 s, the tenth of the minute
    clock.advance(1_000);
    // T0 + 41 s: the quota frees a slot at T0 + 60 s (19 s), o-9's cooldown ends at T0 + 70 s (29 s).
    const refused = expectRefused(limiter.check(otp('o-9')));
    expect(refused.code).toBe(429110);
    expect(refused.retryAfterSeconds).toBe(29);
    expect(refused.headers).toEqual({ limit: 1, remaining: 0, resetAt: T0_SECONDS + 70 });
    // A cooled-down order is refused by the quota alone.
    const quotaOnly = expectRefused(limiter.check(otp('o-0')));
    expect(quotaOnly.code).toBe(429001);
    expect(quotaOnly.retryAfterSeconds).toBe(19);

    clock.advance(19_000);
    expectAllowed(limiter.check(otp('o-0')));
    expect(expectRefused(limiter.check(otp('o-9'))).code).toBe(429110);
    clock.advance(10_000);
    expectAllowed(limiter.check(otp('o-9')));
  });
});
