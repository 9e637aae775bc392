// The case tracker's pace, with a hand-driven clock and a scripted merchant (no sandbox): a case is
// read 15 s after a change, then 30, 60, … up to 5 minutes while nothing changes; with webhooks live
// the pace is 5 minutes up to an hour, and when they stop, cases planned that far out are pulled in;
// resolved and closed cases are not polled, unknown states are; and one pass never polls more than
// the per-minute budget, however many cases are due.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AftersaleCase } from '../../../src/shared/merchant/aftersale';
import { createCaseTracker, type CaseTracker } from '../../../src/core/aftersales/case-tracker';
import { nextPollAt } from '../../../src/core/aftersales/tracking-store';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createScaledClock } from '../../../src/core/platform/clock';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const START = 1_790_000_000_000;
let temp: TempDatabase;
let now: number;
let live: boolean;
let merchant: Map<string, AftersaleCase>;
let asked: string[];
let tracker: CaseTracker;

function makeCase(ref: string, state = 'open', updatedAt = 100): AftersaleCase {
  return {
    platformCaseRef: ref,
    clientOrderRef: `o_${ref}`,
    platformOrderRef: `P${ref}`,
    category: 'other',
    description: 'd',
    images: [],
    state,
    allowedActions: state === 'closed' ? [] : ['message'],
    createdAt: 100,
    updatedAt,
    messages: [],
  };
}

const nextPollOf = (ref: string): number | null =>
  temp.db.prepare<[string], { at: number | null }>('SELECT next_poll_at AS at FROM aftersale_tracking WHERE platform_case_ref = ?').get(ref)?.at ?? null;

const seconds = (): number => Math.floor(now / 1000);

beforeEach(() => {
  temp = createMigratedDatabase();
  now = START;
  live = false;
  merchant = new Map();
  asked = [];
  tracker = createCaseTracker({
    db: temp.db,
    clock: createScaledClock(1, () => now),
    logger: new RedactingLogger({ sink: () => undefined }),
    webhooksLive: () => live,
    pollsPerMinute: 30,
    client: {
      getAftersale: (ref: string) => {
        asked.push(ref);
        const found = merchant.get(ref);
        if (found === undefined) return Promise.reject(new Error('not scripted'));
        return Promise.resolve({ data: found, requestId: `req_${'0'.repeat(24)}` });
      },
    },
  });
});
afterEach(() => temp.dispose());

describe('case tracker pace', () => {
  it('polls 15 s after a change, doubling while nothing changes, up to 5 minutes', async () => {
    merchant.set('A', makeCase('A'));
    tracker.apply(makeCase('A'), false);
    expect(nextPollOf('A')).toBe(seconds() + 15);
    const gaps: number[] = [];
    for (let i = 0; i < 7; i++) {
      now = (nextPollOf('A') ?? 0) * 1000;
      expect(await tracker.pollDue()).toBe(1);
      gaps.push((nextPollOf('A') ?? 0) - seconds());
    }
    expect(gaps).toEqual([30, 60, 120, 240, 300, 300, 300]);
    // A change (the merchant answered) brings the pace back to 15 s.
    merchant.set('A', makeCase('A', 'replied', 200));
    now = (nextPollOf('A') ?? 0) * 1000;
    await tracker.pollDue();
    expect((nextPollOf('A') ?? 0) - seconds()).toBe(15);
    // Nothing is due before its time.
    expect(await tracker.pollDue()).toBe(0);
  });

  it('polls rarely while webhooks are live, and pulls cases in when they stop', async () => {
    live = true;
    merchant.set('A', makeCase('A'));
    tracker.apply(makeCase('A'), false);
    expect(nextPollOf('A')).toBe(seconds() + 300);
    now += 300_000;
    await tracker.pollDue();
    expect((nextPollOf('A') ?? 0) - seconds()).toBe(600);
    live = false;
    now += 1_000;
    expect(await tracker.pollDue()).toBe(0);
    expect((nextPollOf('A') ?? 0) - seconds()).toBe(15);
  });

  it('stops polling resolved and closed cases, and keeps polling a state it does not know', async () => {
    for (const [ref, state] of [['R', 'resolved'], ['C', 'closed'], ['U', 'escalated']] as const) {
      merchant.set(ref, makeCase(ref, state));
      tracker.apply(makeCase(ref, state), false);
    }
    expect(nextPollOf('R')).toBeNull();
    expect(nextPollOf('C')).toBeNull();
    expect(nextPollOf('U')).toBe(seconds() + 15);
    expect(nextPollAt(temp.db)).toBe(seconds() + 15);
    now += 16_000;
    await tracker.pollDue();
    expect(asked).toEqual(['U']);
  });

  it('keeps within the per-minute budget however many cases are due', async () => {
    for (let i = 0; i < 45; i++) {
      const ref = `N${String(i).padStart(2, '0')}`;
      merchant.set(ref, makeCase(ref));
      tracker.apply(makeCase(ref), false);
    }
    now += 16_000;
    expect(await tracker.pollDue()).toBe(30);
    expect(await tracker.pollDue()).toBe(0);
    // The rest wait for the window to free up, not for a busy loop.
    expect(tracker.nextWakeMs()).toBe(now + 60_000);
    now += 60_000;
    // The 15 left waiting go first (they are the longest due), then 15 of those polled a minute ago.
    expect(await tracker.pollDue()).toBe(30);
    expect(new Set(asked.slice(30, 45)).size).toBe(15);
    expect(new Set(asked).size).toBe(45);
  });

  it('backs off a case whose poll failed, as if nothing was seen', async () => {
    tracker.apply(makeCase('X'), false);
    now += 16_000;
    await tracker.pollDue();
    expect(asked).toEqual(['X']);
    expect((nextPollOf('X') ?? 0) - seconds()).toBe(30);
  });
});
