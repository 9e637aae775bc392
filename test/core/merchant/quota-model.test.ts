// The quota model's corrections from the merchant's answers (interface v1 §8 rule 2, contract §8): a 429 of the
// account's total quota holds back every group, a group's own 429 only that group, and neither is
// released before its Retry-After. A hand-driven clock makes the waits exact.
import { describe, expect, it } from 'vitest';
import { createQuotaModel } from '../../../src/core/merchant/quota-model';
import type { Clock } from '../../../src/core/platform/clock';

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

/** A clock whose sleeps end when the test moves time past them. */
function steppedClock(): Clock & { advance(ms: number): Promise<void> } {
  let now = 1_790_000_000_000;
  let timers: { at: number; wake: () => void }[] = [];
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    nowMs: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        timers.push({ at: now + ms, wake: resolve });
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
    async advance(ms) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      for (const timer of due) timer.wake();
      for (let i = 0; i < 10; i++) await settle();
    },
  };
}

describe('quota model priorities (the buyer ahead of the sync)', () => {
  /** The sync as a worker: one request after another, `gapMs` apart, each as soon as the model lets it. */
  const runSync = (model: ReturnType<typeof createQuotaModel>, clock: ReturnType<typeof steppedClock>, gapMs: number, sent: number[]): { stop(): void } => {
    let stopped = false;
    void (async () => {
      while (!stopped) {
        (await model.acquire('catalog', undefined, undefined, 'background')).complete(null);
        sent.push(clock.nowMs());
        await clock.sleep(gapMs);
      }
    })();
    return { stop: () => (stopped = true) };
  };

  it('a sync that spends its minute in the first seconds leaves the buyer ten requests a minute, each sent at once', async () => {
    const clock = steppedClock();
    const model = createQuotaModel(clock);
    const start = clock.nowMs();
    const sent: number[] = [];
    const sync = runSync(model, clock, 100, sent);
    // The buyer asks every 6 s from 12 s on: 8 requests before the sync's first slots free at 60 s.
    const late: number[] = [];
    for (let t = 100; t < 60_000; t += 100) {
      await clock.advance(100);
      if (t >= 12_000 && t % 6_000 === 0) {
        let granted = false;
        void model.acquire('catalog').then((lease) => {
          granted = true;
          lease.complete(null);
        });
        await clock.advance(0);
        if (!granted) late.push(t);
      }
    }
    sync.stop();
    expect(late).toEqual([]);
    // The sync was held back early (a fixed twentieth let it take 114 and the buyer's 7th wait).
    expect(sent.filter((at) => at - start < 12_000).length).toBeLessThanOrEqual(120 - 10);
    await clock.advance(60_000);
  });

  it('once its requests are spread over the minute the sync keeps all but a twentieth of it', async () => {
    const clock = steppedClock();
    const model = createQuotaModel(clock);
    const start = clock.nowMs();
    const sent: number[] = [];
    // Asking at 120 a minute, the sync's own pace: the buyer's share then costs it 6 a minute.
    const sync = runSync(model, clock, 500, sent);
    for (let t = 0; t < 240_000; t += 100) await clock.advance(100);
    sync.stop();
    const inFourthMinute = sent.filter((at) => at - start >= 180_000 && at - start < 240_000).length;
    expect(inFourthMinute).toBeGreaterThanOrEqual(113);
    expect(inFourthMinute).toBeLessThanOrEqual(114);
    await clock.advance(60_000);
  });

  it('a request the buyer waits for takes the next free slot of its group before the sync’s queued ones', async () => {
    const clock = steppedClock();
    const model = createQuotaModel(clock);
    // The group's minute is spent (the buyer's own earlier requests), one request every 500 ms.
    for (let i = 0; i < 120; i++) {
      if (i > 0) await clock.advance(500);
      (await model.acquire('catalog')).complete(null);
    }
    const order: string[] = [];
    const take = (name: string, priority: 'interactive' | 'background'): Promise<void> =>
      model.acquire('catalog', undefined, undefined, priority).then((lease) => {
        order.push(name);
        lease.complete(null);
      });
    // Five of the sync's requests are queued first; then the buyer opens a product.
    const queued = [1, 2, 3, 4, 5].map((n) => take(`sync-${n}`, 'background'));
    await clock.advance(0);
    const buyer = take('buyer', 'interactive');
    await clock.advance(0);
    expect(order).toEqual([]);
    // Slots free one by one as the minute slides: the first goes to the buyer.
    for (let i = 0; i < 40 && order.length < 6; i++) await clock.advance(500);
    await Promise.all([...queued, buyer]);
    expect(order[0]).toBe('buyer');
    expect(order.slice(1).sort()).toEqual(['sync-1', 'sync-2', 'sync-3', 'sync-4', 'sync-5']);
  });

  it('a group the sync spent does not hold back other groups', async () => {
    const clock = steppedClock();
    const model = createQuotaModel(clock);
    for (let i = 0; i < 108; i++) {
      if (i > 0) await clock.advance(100);
      (await model.acquire('catalog', undefined, undefined, 'background')).complete(null);
    }
    const lease = await model.acquire('orderRead', undefined, undefined, 'background');
    lease.complete(null);
  });

  it('a buyer’s requests of another group waiting on the account’s shared burst window go before background ones', async () => {
    const clock = steppedClock();
    const model = createQuotaModel(clock);
    // The total's 30/s burst is full: 4 slots from t0, 26 from t0 + 500 ms (the buyer's own requests).
    for (let i = 0; i < 4; i++) (await model.acquire('account')).complete(null);
    await clock.advance(500);
    for (let i = 0; i < 26; i++) (await model.acquire('account')).complete(null);
    const order: string[] = [];
    const take = (name: string, group: 'catalog' | 'orderRead', priority: 'interactive' | 'background'): Promise<void> =>
      model.acquire(group, undefined, undefined, priority).then((lease) => {
        order.push(name);
        lease.complete(null);
      });
    // An order poll is queued first; then the buyer opens four products (another group).
    const polls = [take('poll-1', 'orderRead', 'background'), take('poll-2', 'orderRead', 'background')];
    await clock.advance(0);
    const opens = [1, 2, 3, 4].map((n) => take(`open-${n}`, 'catalog', 'interactive'));
    await clock.advance(0);
    expect(order).toEqual([]);
    // At t0 + 1 s four slots free at once: all four go to the buyer, none to the poll.
    await clock.advance(500);
    expect(order).toEqual(['open-1', 'open-2', 'open-3', 'open-4']);
    for (let i = 0; i < 4 && order.length < 6; i++) await clock.advance(500);
    await Promise.all([...polls, ...opens]);
    expect(order.slice(4).sort()).toEqual(['poll-1', 'poll-2']);
  });
});
