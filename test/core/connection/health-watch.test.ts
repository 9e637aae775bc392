// The health watch (contract §8.3) on a clock that moves only when told: nothing is sent while no
// window watches; while one does, GET /account goes out at once and then after IDLE_PROBE_MS of silence (any other
// answer counts as news), refused connections are seen at the first probe and then asked about with
// the reach probe's backoff capped at WATCHED_REACH_MAX_MS, a lifted fault is seen by the next
// probe, and a watch that is not renewed lapses.
import { afterEach, describe, expect, it } from 'vitest';
import { createConnectionStateMachine, type ConnectionStateMachine } from '../../../src/core/connection/connection-state';
import { createHealthWatch, IDLE_PROBE_MS, WATCH_LEASE_MS, WATCHED_REACH_MAX_MS, type HealthWatch } from '../../../src/core/connection/health-watch';
import { createReachProbe } from '../../../src/core/connection/reach-probe';
import type { Clock } from '../../../src/core/platform/clock';

interface Sleeper {
  at: number;
  resolve: () => void;
}

/** A clock whose sleeps end only when advance() passes their time, earliest first. */
function steppedClock(startMs: number): Clock & { advance(ms: number): Promise<void> } {
  let now = startMs;
  const sleepers = new Set<Sleeper>();
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    nowMs: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('aborted'));
        const sleeper: Sleeper = { at: now + ms, resolve };
        sleepers.add(sleeper);
        signal?.addEventListener('abort', () => {
          sleepers.delete(sleeper);
          reject(new Error('aborted'));
        }, { once: true });
      }),
    async advance(ms) {
      const target = now + ms;
      await settle();
      for (;;) {
        const due = [...sleepers].filter((s) => s.at <= target).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        sleepers.delete(due);
        now = Math.max(now, due.at);
        due.resolve();
        await settle();
      }
      now = target;
      await settle();
    },
  };
}

const START = 1_700_000_000_000;
let watch: HealthWatch | null = null;

afterEach(async () => {
  await watch?.stop();
  watch = null;
});

/** A merchant behind GET /account: answers, or refuses connections while `refusing`. */
function setUp() {
  const clock = steppedClock(START);
  const connection: ConnectionStateMachine = createConnectionStateMachine(clock);
  const probes: number[] = [];
  const merchant = { refusing: false };
  const probe = (): Promise<unknown> => {
    probes.push(clock.nowMs() - START);
    if (merchant.refusing) {
      connection.observe({ kind: 'transport', reason: 'refused', connected: false, requestId: null });
      return Promise.reject(new Error('refused'));
    }
    connection.observe({ kind: 'account', accessState: 'active', requestId: `r-${probes.length}` });
    return Promise.resolve();
  };
  watch = createHealthWatch({ connection, reach: createReachProbe(connection, clock), clock, probe });
  watch.start();
  return { clock, connection, probes, merchant, watch };
}

describe('health watch', () => {
  it('sends nothing while no window watches', async () => {
    const { clock, probes, merchant, connection } = setUp();
    merchant.refusing = true;
    await clock.advance(120_000);
    expect(probes).toEqual([]);
    expect(connection.view().state).toBe('online');
  });

  it('while watched, asks at once after a silence, then after IDLE_PROBE_MS of silence; any other answer is news enough', async () => {
    const { clock, probes, connection, watch } = setUp();
    watch.watch();
    await clock.advance(0);
    expect(probes).toEqual([0]);
    await clock.advance(IDLE_PROBE_MS - 1);
    expect(probes).toEqual([0]);
    await clock.advance(1);
    expect(probes).toEqual([0, IDLE_PROBE_MS]);
    // The buyer's own request answers 1 s later: the next probe waits for IDLE_PROBE_MS after it.
    await clock.advance(1_000);
    const buyerAt = clock.nowMs() - START;
    connection.observe({ kind: 'answered', httpStatus: 200, code: 0, requestId: 'r-buyer', retryAtMs: null });
    await clock.advance(IDLE_PROBE_MS - 1);
    expect(probes).toHaveLength(2);
    await clock.advance(1);
    expect(probes).toEqual([0, IDLE_PROBE_MS, buyerAt + IDLE_PROBE_MS]);
  });

  it('refused connections: offline within the idle gap; then probes no further apart than the cap; online by the next probe once lifted', async () => {
    const { clock, probes, connection, merchant, watch } = setUp();
    watch.watch();
    await clock.advance(IDLE_PROBE_MS);
    merchant.refusing = true;
    const refusedAt = clock.nowMs();
    await clock.advance(IDLE_PROBE_MS);
    expect(connection.view()).toMatchObject({ state: 'offline', transportReason: 'refused' });
    expect(clock.nowMs() - refusedAt).toBeLessThanOrEqual(IDLE_PROBE_MS);
    // A minute offline with the window open (renewed as the renderer does).
    for (let i = 0; i < 12; i++) {
      watch.watch();
      await clock.advance(5_000);
    }
    const offlineProbes = probes.filter((at) => at > refusedAt - START);
    const gaps = offlineProbes.slice(1).map((at, i) => at - (offlineProbes[i] ?? at));
    expect(gaps.length).toBeGreaterThanOrEqual(5);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(1_000);
      expect(gap).toBeLessThanOrEqual(WATCHED_REACH_MAX_MS);
    }
    // Backoff: not every two seconds for a whole minute.
    expect(gaps.at(-1)).toBeGreaterThan(IDLE_PROBE_MS);
    merchant.refusing = false;
    const liftedAt = clock.nowMs();
    watch.watch();
    await clock.advance(WATCHED_REACH_MAX_MS);
    expect(connection.view().state).toBe('online');
    expect((probes.at(-1) ?? 0) + START - liftedAt).toBeLessThanOrEqual(WATCHED_REACH_MAX_MS);
  });

  it('a watch that is not renewed lapses, and the probes stop', async () => {
    const { clock, probes, watch } = setUp();
    watch.watch();
    await clock.advance(WATCH_LEASE_MS);
    const during = probes.length;
    expect(during).toBeGreaterThanOrEqual(WATCH_LEASE_MS / IDLE_PROBE_MS - 1);
    expect(watch.watching()).toBe(false);
    await clock.advance(60_000);
    expect(probes.length).toBe(during);
    // Watched again after a minute of silence: asked at once, then at the idle pace.
    watch.watch();
    await clock.advance(0);
    expect(probes.length).toBe(during + 1);
    await clock.advance(IDLE_PROBE_MS);
    expect(probes.length).toBe(during + 2);
  });

  it('a merchant that is only slow is asked at the idle pace, not held back by the reach probe', async () => {
    const { clock, probes, connection, watch } = setUp();
    watch.watch();
    await clock.advance(0);
    connection.observe({ kind: 'answered', httpStatus: 200, code: 0, requestId: 'r-slow', retryAtMs: null, slowMs: 10_000 });
    expect(connection.view()).toMatchObject({ state: 'degraded', slowMs: 10_000 });
    await clock.advance(IDLE_PROBE_MS);
    expect(probes).toEqual([0, IDLE_PROBE_MS]);
    expect(connection.view()).toMatchObject({ state: 'online', slowMs: null });
  });
});
