// The client's model of the merchant's limits (interface v1 §8, contract §8), so that normal work never meets a
// 429. A request holds a slot in every window it counts against from the moment it is sent; when its
// answer arrives the slot is stamped with that (later) time, so a window frees on our side no earlier
// than on the merchant's, whatever the network did. The merchant's headers correct the model when
// someone else uses the same account.
import {
  BURST_WINDOW_MS,
  COOLDOWNS,
  GROUP_QUOTAS,
  MINUTE_WINDOW_MS,
  TOTAL_QUOTA,
  type CooldownKind,
  type QuotaGroup,
} from '../../shared/merchant-quotas';
import type { Clock } from '../platform/clock';
import { retryAfterMs } from './retry-after';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

export type { CooldownKind, QuotaGroup };

interface Slot {
  /** When the answer arrived; Infinity while the request is in flight. */
  at: number;
}

/**
 * What background work leaves the buyer in a window of `limit` (contract §8.1.1, "the buyer first"):
 * `atOnce` slots free at every moment (a twentieth, at least one: catalog 6 of 120 a minute), and over
 * any span of the coming window `perWindow` pro rata (a tenth, at least one: catalog 12 a minute), counting
 * the slots that age out meanwhile. Why time matters: the sync spends its minute's share in its first
 * seconds, so its slots leave the window in clusters and for most of a minute none frees; a fixed
 * reserve of 6 then made the buyer's 7th request in that minute wait up to a minute (50 opens and 20
 * templates over a 1,000-product sync are about 9 a minute). Keeping free what the buyer may ask before
 * the next slots age out covers them, and costs the sync little: once its slots are spread over the
 * minute (which this rule itself brings about) only `atOnce` binds, as before.
 */
export interface BackgroundReserve {
  readonly atOnce: number;
  readonly perWindow: number;
}

export function buyerShareOf(limit: number): BackgroundReserve {
  return { atOnce: backgroundReserveOf(limit), perWindow: Math.max(1, Math.ceil(limit / 10)) };
}

/** The slots background work leaves free at every moment (buyerShareOf's atOnce): its steady-state share is the rest. */
export function backgroundReserveOf(limit: number): number {
  return Math.max(1, Math.ceil(limit / 20));
}

class SlotWindow {
  private slots: Slot[] = [];
  /** Slots ever taken or occupied: tells how many were added while one request was in flight. */
  added = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private prune(now: number): void {
    this.slots = this.slots.filter((slot) => now - slot.at < this.windowMs);
  }

  /**
   * Ms until a slot is free: 0 now, Infinity until some request in flight completes. `reserve` slots
   * at the top of the window are not for this caller (background work leaves them to the buyer).
   */
  waitMs(now: number, reserve = 0): number {
    this.prune(now);
    const capacity = Math.max(1, this.limit - reserve);
    if (this.slots.length < capacity) return 0;
    // Enough slots must age out to bring the count below the capacity: the k-th one to finish decides.
    const needed = this.slots.length - capacity + 1;
    const finished = this.slots
      .filter((s) => s.at !== Infinity)
      .map((s) => s.at + this.windowMs - now)
      .sort((a, b) => a - b);
    const decisive = finished[needed - 1];
    return decisive === undefined ? Infinity : Math.max(0, decisive);
  }

  /**
   * Ms until background work may take a slot (Infinity: until a request in flight completes). It
   * must leave `reserve.atOnce` free now, and at each coming moment u, with the slots aged out by then,
   * what the buyer may have asked since now: at most max(atOnce, perWindow · (u − now) / window).
   * Slots in flight count as not freeing within the window (their age starts with their answer).
   * A burst window (1 s) frees whole within the buyer's 1 s anyway: only `atOnce` applies there.
   */
  backgroundWaitMs(now: number, reserve: BackgroundReserve, paced: boolean): number {
    let wait = this.waitMs(now, reserve.atOnce);
    if (!paced || wait === Infinity) return wait;
    // After this request's slot: free now, growing by one as each finished slot ages out.
    const free = this.limit - this.slots.length - 1;
    const ageOuts = this.slots
      .filter((s) => s.at !== Infinity)
      .map((s) => s.at + this.windowMs)
      .sort((a, b) => a - b);
    if (free + ageOuts.length < reserve.perWindow) return Infinity;
    ageOuts.forEach((ageOut, i) => {
      // Just before the i-th slot ages out `free + i` are free (the sum stays the same as earlier
      // slots age out): enough for a buyer asking perWindow · span / window once span <=
      // (free + i) · window / perWindow, i.e. from then on; once the slot aged out it binds no more.
      const from = Math.min(ageOut, ageOut - ((free + i) * this.windowMs) / reserve.perWindow);
      wait = Math.max(wait, from - now);
    });
    return Math.max(0, wait);
  }

  /** What background work leaves the buyer in this window (buyerShareOf). */
  get backgroundReserve(): BackgroundReserve {
    return buyerShareOf(this.limit);
  }

  /** Whether the buyer's share is kept over time (minute windows) or only at once (burst windows). */
  get paced(): boolean {
    return this.windowMs > BURST_WINDOW_MS;
  }

  take(): Slot {
    const slot: Slot = { at: Infinity };
    this.slots.push(slot);
    this.added += 1;
    return slot;
  }

  /** Remaining capacity now, as the merchant's X-RateLimit-Remaining would say. */
  remaining(now: number): number {
    this.prune(now);
    return this.limit - this.slots.length;
  }

  /** Slots someone else used (another client on the account): counted from now. */
  occupy(count: number, now: number): void {
    for (let i = 0; i < count; i++) this.slots.push({ at: now });
    this.added += count;
  }
}

export interface QuotaLease {
  /** The answer arrived (or the request surely left): stamps the slots and starts any cooldown. */
  complete(answer: { status: number; code: number | null; headers: Record<string, string> } | null): void;
}

/**
 * `interactive`: someone waits for the answer (the buyer opened a product, placed an order, the
 * price guard's read before a send). `background`: work nobody is watching (the catalog sync, the
 * watched-product poll, order and case polls, webhook re-checks). A background request yields while an
 * interactive one of its group waits, and while an interactive one of any group waits on a window it
 * would take a slot of (the account's total minute and burst are shared by every group), so the
 * buyer is never queued behind background work. Which caller is which: request-priority.ts.
 */
export type QuotaPriority = 'interactive' | 'background';

export interface QuotaModel {
  acquire(group: QuotaGroup, cooldown?: { kind: CooldownKind; orderRef: string }, signal?: AbortSignal, priority?: QuotaPriority): Promise<QuotaLease>;
  /** How long acquire would wait now, for display ("rate limited, retrying in …"). */
  waitMs(group: QuotaGroup): number;
}

export function createQuotaModel(clock: Clock): QuotaModel {
  const totalMinute = new SlotWindow(TOTAL_QUOTA.perMinute, MINUTE_WINDOW_MS);
  const totalBurst = new SlotWindow(TOTAL_QUOTA.burst ?? TOTAL_QUOTA.perMinute, BURST_WINDOW_MS);
  const groupMinute = new Map<QuotaGroup, SlotWindow>();
  const groupBurst = new Map<QuotaGroup, SlotWindow>();
  for (const [group, rule] of Object.entries(GROUP_QUOTAS) as [QuotaGroup, (typeof GROUP_QUOTAS)[QuotaGroup]][]) {
    groupMinute.set(group, new SlotWindow(rule.perMinute, MINUTE_WINDOW_MS));
    if (rule.burst !== undefined) groupBurst.set(group, new SlotWindow(rule.burst, BURST_WINDOW_MS));
  }
  /** `kind:orderRef` → when the next attempt may be sent (Infinity while one is in flight). */
  const cooldowns = new Map<string, number>();
  const blockedUntil = new Map<QuotaGroup, number>();
  /** The account's total quota refused (someone else spent it): every group waits, not just one. */
  let allBlockedUntil = 0;
  let completions: (() => void)[] = [];
  /** Interactive requests waiting for a slot, per group: background ones of that group hold back. */
  const interactiveWaiting = new Map<QuotaGroup, number>();
  /**
   * Interactive requests a full window holds back, per window: background requests of every group
   * that counts against that window hold back too (the total's windows are shared by all groups).
   */
  const interactiveBlockedOn = new Map<SlotWindow, number>();
  let priorityWaiters: (() => void)[] = [];
  const priorityChanged = (): void => {
    const waiting = priorityWaiters;
    priorityWaiters = [];
    for (const wake of waiting) wake();
  };
  const nextPriorityChange = (signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      priorityWaiters.push(resolve);
      signal?.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    });

  const windowsOf = (group: QuotaGroup): SlotWindow[] => {
    const windows = [totalMinute, totalBurst];
    const minute = groupMinute.get(group);
    if (minute) windows.push(minute);
    const burst = groupBurst.get(group);
    if (burst) windows.push(burst);
    return windows;
  };

  const countBlocked = (windows: readonly SlotWindow[], delta: number): void => {
    for (const window of windows) interactiveBlockedOn.set(window, (interactiveBlockedOn.get(window) ?? 0) + delta);
  };
  /** Whether a background request of `group` must leave the next slot to a waiting interactive one. */
  const mustYield = (group: QuotaGroup): boolean =>
    (interactiveWaiting.get(group) ?? 0) > 0 || windowsOf(group).some((window) => (interactiveBlockedOn.get(window) ?? 0) > 0);

  const waitFor = (group: QuotaGroup, cooldownKey: string | null, now: number, background = false): number => {
    let wait = Math.max(0, (blockedUntil.get(group) ?? 0) - now, allBlockedUntil - now);
    if (cooldownKey !== null) wait = Math.max(wait, (cooldowns.get(cooldownKey) ?? 0) - now);
    // Background work never takes the slots the buyer may need before the window frees others: a sync
    // that spends a minute's quota in its first seconds would otherwise make the buyer wait out the minute.
    for (const window of windowsOf(group)) wait = Math.max(wait, background ? window.backgroundWaitMs(now, window.backgroundReserve, window.paced) : window.waitMs(now));
    return wait;
  };

  const nextCompletion = (signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      completions.push(resolve);
      signal?.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    });

  return {
    waitMs: (group) => {
      const wait = waitFor(group, null, clock.nowMs());
      return wait === Infinity ? 1000 : wait;
    },
    async acquire(group, cooldown, signal, priority = 'interactive') {
      const cooldownKey = cooldown ? `${cooldown.kind}:${cooldown.orderRef}` : null;
      const interactive = priority === 'interactive';
      if (interactive) interactiveWaiting.set(group, (interactiveWaiting.get(group) ?? 0) + 1);
      /** The full windows this interactive request waits on, as counted in interactiveBlockedOn. */
      let blockedOn: SlotWindow[] = [];
      try {
        for (;;) {
          signal?.throwIfAborted();
          if (!interactive && mustYield(group)) {
            await nextPriorityChange(signal);
            continue;
          }
          const now = clock.nowMs();
          if (interactive) {
            const full = windowsOf(group).filter((window) => window.waitMs(now) > 0);
            if (full.length !== blockedOn.length || full.some((window, i) => window !== blockedOn[i])) {
              countBlocked(blockedOn, -1);
              countBlocked(full, 1);
              blockedOn = full;
              priorityChanged();
            }
          }
          const wait = waitFor(group, cooldownKey, now, !interactive);
          if (wait === 0) break;
          await (wait === Infinity ? nextCompletion(signal) : clock.sleep(wait, signal));
        }
      } finally {
        if (interactive) {
          interactiveWaiting.set(group, (interactiveWaiting.get(group) ?? 1) - 1);
          countBlocked(blockedOn, -1);
          priorityChanged();
        }
      }
      const slots = windowsOf(group).map((window) => window.take());
      // The merchant's X-RateLimit-Remaining describes its window when the request ARRIVED, so it is
      // compared with ours as of the send, not as of the answer: by then our window may have freed
      // slots the merchant still counted, and "correcting" for them would block slots for a
      // minute that nobody else used (a slow answer then cost a whole extra window slot).
      const minuteAtSend = groupMinute.get(group);
      const remainingAtSend = minuteAtSend ? minuteAtSend.remaining(clock.nowMs()) : 0;
      const addedAtSend = minuteAtSend ? minuteAtSend.added : 0;
      if (cooldownKey !== null) cooldowns.set(cooldownKey, Infinity);
      let done = false;
      return {
        complete(answer) {
          if (done) return;
          done = true;
          const now = clock.nowMs();
          for (const slot of slots) slot.at = now;
          if (cooldownKey !== null && cooldown) cooldowns.set(cooldownKey, now + COOLDOWNS[cooldown.kind].periodMs);
          if (answer) {
            const retryAfter = retryAfterMs(answer.headers, now);
            if (answer.status === 429 && retryAfter !== null) {
              if (cooldownKey !== null && answer.code !== MERCHANT_ERROR.RATE_LIMITED) cooldowns.set(cooldownKey, now + retryAfter);
              // On a 429 the headers describe the rule that refused (contract §8); a limit of 600 is
              // only the account's total, which every other group would meet as well.
              else if (Number(answer.headers['x-ratelimit-limit']) === TOTAL_QUOTA.perMinute) allBlockedUntil = Math.max(allBlockedUntil, now + retryAfter);
              else blockedUntil.set(group, now + retryAfter);
            }
            if (answer.status === 503 && retryAfter !== null) blockedUntil.set(group, now + retryAfter);
            const reported = Number(answer.headers['x-ratelimit-remaining']);
            const minute = groupMinute.get(group);
            if (minute && answer.status !== 429 && Number.isInteger(reported) && reported >= 0) {
              // Slots added since the send (our later requests, earlier corrections) may already
              // be in the merchant's count; only what is missing beyond them is someone else's.
              const expected = remainingAtSend - (minute.added - addedAtSend);
              const unexplained = Math.min(expected - reported, minute.remaining(now));
              if (unexplained > 0) minute.occupy(unexplained, now);
            }
          }
          const waiting = completions;
          completions = [];
          for (const wake of waiting) wake();
        },
      };
    },
  };
}
