// The merchant sandbox's rate limiter (spec section 8, docs/contract.md section 8): sliding quota
// windows per account and group, the account's total quota and burst, and per-order cooldowns.
// Pure and in memory; the HTTP layer maps a decision to 429 / Retry-After / X-RateLimit-*.
//
// Benchmarks push many thousands of requests through here, so every rule costs O(1) amortised and
// memory stays bounded: a window holds at most `limit` timestamps (only accepted requests are
// stored, and one is stored only when the window has room), cooldowns of old orders and state of
// idle accounts are swept once their maps have doubled since the previous sweep.
import type { SandboxClock } from '../clock';
import {
  BURST_WINDOW_MS,
  COOLDOWNS,
  GROUP_QUOTAS,
  LONGEST_COOLDOWN_MS,
  MINUTE_WINDOW_MS,
  QUOTA_CODE,
  TOTAL_QUOTA,
} from './quota-rules';
import type { CooldownCode, CooldownKind, QuotaCode, QuotaGroup } from './quota-rules';

export type { CooldownKind, QuotaGroup } from './quota-rules';

export interface RateCheck {
  accountKey: string;
  group: QuotaGroup;
  cooldown?: { kind: CooldownKind; orderRef: string };
}

export interface RateHeaders {
  limit: number;
  remaining: number;
  /** Unix seconds, sandbox time. */
  resetAt: number;
}

export type RateDecision =
  | { allowed: true; headers: RateHeaders }
  | { allowed: false; code: QuotaCode | CooldownCode; retryAfterSeconds: number; headers: RateHeaders };

export interface RateLimiter {
  check(request: RateCheck): RateDecision;
  /** Forgets every window and cooldown (a fresh sandbox). */
  reset(): void;
}

// Below this many entries a map is never swept: sweeping tiny maps would cost more than it saves.
const MIN_SWEEP_SIZE = 1024;

/**
 * Timestamps of accepted requests within the last `windowMs`, in a ring buffer of exactly `limit`
 * slots: a full window refuses, so it never needs more.
 */
class SlidingWindow {
  private readonly times: Float64Array;
  private head = 0;
  private size = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {
    this.times = new Float64Array(limit);
  }

  /** Sandbox ms until one more request fits; 0 when it fits now. */
  waitMs(now: number): number {
    this.prune(now);
    return this.size < this.limit ? 0 : this.oldest() + this.windowMs - now;
  }

  /** Only after waitMs(now) returned 0. */
  record(now: number): void {
    this.times[(this.head + this.size) % this.limit] = now;
    this.size += 1;
  }

  headers(now: number): RateHeaders {
    this.prune(now);
    return {
      limit: this.limit,
      remaining: this.limit - this.size,
      resetAt: this.size > 0 ? Math.ceil((this.oldest() + this.windowMs) / 1000) : Math.floor(now / 1000),
    };
  }

  private oldest(): number {
    return this.times[this.head] ?? 0;
  }

  // A request is inside the window while now - t < windowMs, so the one at exactly t + windowMs
  // has left it: "N per minute" then means N in any half-open 60 s span, and a client that waits
  // exactly Retry-After (when the wait is whole seconds) is accepted.
  private prune(now: number): void {
    while (this.size > 0 && now - this.oldest() >= this.windowMs) {
      this.head = this.head + 1 === this.limit ? 0 : this.head + 1;
      this.size -= 1;
    }
  }
}

interface GroupState {
  minute: SlidingWindow;
  /** Every window a request of this group must fit: the group's burst and minute, then the account's total burst and minute. */
  windows: readonly SlidingWindow[];
}

interface AccountState {
  totalMinute: SlidingWindow;
  totalBurst: SlidingWindow | undefined;
  groups: Map<QuotaGroup, GroupState>;
  /** `kind:orderRef` → sandbox ms when the order may be tried again (kinds contain no colon). */
  cooldowns: Map<string, number>;
  cooldownSweepAt: number;
  lastAcceptedMs: number;
}

export function createRateLimiter(clock: SandboxClock): RateLimiter {
  let accounts = new Map<string, AccountState>();
  let accountSweepAt = MIN_SWEEP_SIZE;
  // The scaled clock follows the wall clock, which may step back; a window fed a time earlier than
  // its newest entry would report waits longer than the window, so time here never goes back.
  let lastNow = -Infinity;

  const now = (): number => {
    lastNow = Math.max(lastNow, clock.nowMs());
    return lastNow;
  };

  const newAccount = (): AccountState => ({
    totalMinute: new SlidingWindow(TOTAL_QUOTA.perMinute, MINUTE_WINDOW_MS),
    totalBurst: TOTAL_QUOTA.burst === undefined ? undefined : new SlidingWindow(TOTAL_QUOTA.burst, BURST_WINDOW_MS),
    groups: new Map(),
    cooldowns: new Map(),
    cooldownSweepAt: MIN_SWEEP_SIZE,
    lastAcceptedMs: -Infinity,
  });

  const accountState = (key: string, at: number): AccountState => {
    const existing = accounts.get(key);
    if (existing) return existing;
    if (accounts.size >= accountSweepAt) sweepAccounts(at);
    const created = newAccount();
    accounts.set(key, created);
    return created;
  };

  // An account idle for longer than both the minute window and the longest cooldown holds no
  // counted request and no running cooldown: dropping it changes no future decision.
  const sweepAccounts = (at: number): void => {
    const idleFor = Math.max(MINUTE_WINDOW_MS, LONGEST_COOLDOWN_MS);
    for (const [key, state] of accounts) {
      if (at - state.lastAcceptedMs >= idleFor) accounts.delete(key);
    }
    accountSweepAt = Math.max(MIN_SWEEP_SIZE, accounts.size * 2);
  };

  const groupState = (account: AccountState, group: QuotaGroup): GroupState => {
    const existing = account.groups.get(group);
    if (existing) return existing;
    const rule = GROUP_QUOTAS[group];
    const minute = new SlidingWindow(rule.perMinute, MINUTE_WINDOW_MS);
    const windows: SlidingWindow[] = [];
    if (rule.burst !== undefined) windows.push(new SlidingWindow(rule.burst, BURST_WINDOW_MS));
    windows.push(minute);
    if (account.totalBurst) windows.push(account.totalBurst);
    windows.push(account.totalMinute);
    const created: GroupState = { minute, windows };
    account.groups.set(group, created);
    return created;
  };

  // Expired cooldowns of orders nobody touches again would otherwise pile up; sweeping only when
  // the map has doubled since the last sweep keeps the cost O(1) amortised per stored cooldown.
  const sweepCooldowns = (account: AccountState, at: number): void => {
    for (const [key, until] of account.cooldowns) {
      if (until <= at) account.cooldowns.delete(key);
    }
    account.cooldownSweepAt = Math.max(MIN_SWEEP_SIZE, account.cooldowns.size * 2);
  };

  return {
    check(request) {
      const at = now();
      const account = accountState(request.accountKey, at);
      const group = groupState(account, request.group);

      // The refusing rule with the longest wait so far. Plain variables rather than per-call
      // closures: under tsx (how the sandbox runs) every closure also costs a defineProperty.
      let waitMs = 0;
      let code: QuotaCode | CooldownCode = QUOTA_CODE;
      let refusingWindow: SlidingWindow | undefined;
      let cooldownUntil = 0;

      const cooldownRule = request.cooldown ? COOLDOWNS[request.cooldown.kind] : undefined;
      const cooldownKey = request.cooldown ? `${request.cooldown.kind}:${request.cooldown.orderRef}` : undefined;
      if (cooldownRule && cooldownKey !== undefined) {
        const until = account.cooldowns.get(cooldownKey);
        if (until !== undefined) {
          if (until <= at) {
            account.cooldowns.delete(cooldownKey);
          } else {
            waitMs = until - at;
            code = cooldownRule.code;
            cooldownUntil = until;
          }
        }
      }
      // Order of evaluation decides ties (equal waits): the most specific rule is reported, the
      // cooldown first, then the group's burst and minute, then the account's total.
      for (const window of group.windows) {
        const wait = window.waitMs(at);
        if (wait > waitMs) {
          waitMs = wait;
          code = QUOTA_CODE;
          refusingWindow = window;
        }
      }

      if (waitMs > 0) {
        return {
          allowed: false,
          code,
          retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
          headers: refusingWindow
            ? refusingWindow.headers(at)
            : { limit: 1, remaining: 0, resetAt: Math.ceil(cooldownUntil / 1000) },
        };
      }

      // Every rule allowed it: only now is it counted, in every window that applies.
      for (const window of group.windows) window.record(at);
      account.lastAcceptedMs = at;
      if (cooldownRule && cooldownKey !== undefined) {
        account.cooldowns.set(cooldownKey, at + cooldownRule.periodMs);
        if (account.cooldowns.size >= account.cooldownSweepAt) sweepCooldowns(account, at);
      }
      return { allowed: true, headers: group.minute.headers(at) };
    },

    reset() {
      accounts = new Map();
      accountSweepAt = MIN_SWEEP_SIZE;
    },
  };
}
