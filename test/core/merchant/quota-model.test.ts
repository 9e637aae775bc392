// The quota model's corrections from the merchant's answers (spec 8 rule 2, contract 8): a 429 of the
// account's total quota holds back every group, a group's own 429 only that group, and neither is
// released before its Retry-After. A hand-driven clock makes the waits exact.
import { describe, expect, it } from 'vitest';
import { createQuotaModel } from '../../../src/main/core/merchant/quota-model';
import type { Clock } from '../../../src/main/core/platform/clock';

function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_790_000_000_000;
  return {
    nowMs: () => now,
    sleep: () => new Promise<void>(() => undefined),
    advance: (ms) => {
      now += ms;
    },
  };
}

const refused = (limit: number, retryAfterSeconds: number) => ({
  status: 429,
  code: 429001,
  headers: { 'retry-after': String(retryAfterSeconds), 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0' },
});

describe('quota model corrections', () => {
  it("a 429 of the account's total quota (limit 600) holds back every group until its Retry-After", async () => {
    const clock = manualClock();
    const model = createQuotaModel(clock);
    const lease = await model.acquire('catalog');
    lease.complete(refused(600, 5));
    for (const group of ['catalog', 'orderRead', 'account', 'orderCreate'] as const) expect(model.waitMs(group)).toBe(5000);
    clock.advance(5000);
    for (const group of ['catalog', 'orderRead', 'account', 'orderCreate'] as const) expect(model.waitMs(group)).toBe(0);
  });

  it("a group's own 429 (limit 120) holds back that group only", async () => {
    const clock = manualClock();
    const model = createQuotaModel(clock);
    const lease = await model.acquire('catalog');
    lease.complete(refused(120, 7));
    expect(model.waitMs('catalog')).toBe(7000);
    expect(model.waitMs('orderRead')).toBe(0);
    expect(model.waitMs('orderCreate')).toBe(0);
  });
});
