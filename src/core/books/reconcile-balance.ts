// The balance check of a reconciliation (contract §12.2): the opening and closing balances from the
// app's own readings (balance-history.ts), and between them what the books say moved (book-money.ts).
// Opening: the reading covering the range's start, else the last one before it, else the first one in
// the range. Closing: the reading covering the end, else the last one before it (when newer than the
// opening), else the first one after it, else a fresh GET /account (reconciliation.ts asks it).
// The check runs from one reading to the other, so it is exact whichever readings they are.
import type { BalanceCheck, BoundaryBalance, ReconcileVerdict } from '../../shared/ipc/views/reconcile';
import type { BalanceAt, BalanceObservation } from './balance-history';

/** A boundary resting on a reading, and the merchant seconds the books' entries are counted from or to. */
export interface BoundaryReading {
  readonly balance: BoundaryBalance;
  /** Opening: entries from this second on; closing: up to and including it. */
  readonly second: number;
}

/** The opening: a reading, or none (second null). `inRange`: the first reading after the range began. */
export type OpeningReading = (BoundaryReading & { readonly inRange: boolean }) | { readonly balance: BoundaryBalance; readonly second: null; readonly inRange: false };

const known = (o: BalanceObservation, atMs: number, boundaryMs: number, fresh: boolean): BoundaryBalance => ({
  known: true,
  atMs,
  balanceFen: o.balanceFen,
  seenFromMs: o.firstSeenAtMs,
  seenUntilMs: o.lastSeenAtMs,
  boundaryMs,
  fresh,
});

function notKnown(at: BalanceAt, atMs: number): BoundaryBalance {
  const before = at.kind === 'seen' ? at.observation : at.before;
  const after = at.kind === 'seen' ? null : at.after;
  return {
    known: false,
    atMs,
    before: before === null ? null : { balanceFen: before.balanceFen, lastSeenAtMs: before.lastSeenAtMs },
    after: after === null ? null : { balanceFen: after.balanceFen, firstSeenAtMs: after.firstSeenAtMs },
  };
}

/**
 * The opening balance at `startMs` (a range's first midnight). A charge in the same second as a reading
 * is taken as before it: the app reads the balance after an order moves money, not before. A reading
 * inside the range stands for its start only when the books moved no money before it (the caller
 * checks that: `inRange`), else the start is not known.
 */
export function openingReading(at: BalanceAt, startMs: number, closingLimitMs: number): OpeningReading {
  if (at.kind === 'seen') return { balance: known(at.observation, startMs, startMs, false), second: Math.ceil(startMs / 1000), inRange: false };
  if (at.before !== null) return { balance: known(at.before, at.before.lastSeenAtMs, startMs, false), second: Math.floor(at.before.lastSeenAtMs / 1000) + 1, inRange: false };
  if (at.after !== null && at.after.firstSeenAtMs <= closingLimitMs) {
    return { balance: known(at.after, at.after.firstSeenAtMs, startMs, false), second: Math.floor(at.after.firstSeenAtMs / 1000) + 1, inRange: true };
  }
  return notKnownOpening(at, startMs);
}

export const notKnownOpening = (at: BalanceAt, startMs: number): OpeningReading => ({ balance: notKnown(at, startMs), second: null, inRange: false });

/**
 * The closing balance at `endMs` (the midnight after the range) from the history, or null when no
 * reading after the opening one tells it (then the merchant is asked: freshReading).
 */
export function closingReading(at: BalanceAt, endMs: number, openingMs: number | null): BoundaryReading | null {
  if (at.kind === 'seen') return { balance: known(at.observation, endMs, endMs, false), second: Math.ceil(endMs / 1000) - 1 };
  if (at.before !== null && (openingMs === null || at.before.lastSeenAtMs > openingMs)) {
    return { balance: known(at.before, at.before.lastSeenAtMs, endMs, false), second: Math.floor(at.before.lastSeenAtMs / 1000) };
  }
  if (at.after !== null) return { balance: known(at.after, at.after.firstSeenAtMs, endMs, false), second: Math.floor(at.after.firstSeenAtMs / 1000) };
  return null;
}

/** The closing balance just read from the merchant (GET /account) for this check: the newest reading. */
export function freshReading(latest: BalanceObservation, boundaryMs: number): BoundaryReading {
  return { balance: known(latest, latest.lastSeenAtMs, boundaryMs, true), second: Math.floor(latest.lastSeenAtMs / 1000) };
}

/** Money the books say moved between the readings, fen: charges out, refunds back. */
export interface RecordedFlows {
  readonly chargesFen: number;
  readonly refundsFen: number;
}

export function balanceCheck(start: BoundaryBalance, end: BoundaryBalance, flows: RecordedFlows): BalanceCheck {
  const expectedChangeFen = flows.refundsFen - flows.chargesFen;
  const actualChangeFen = start.known && end.known ? end.balanceFen - start.balanceFen : null;
  return {
    start,
    end,
    chargesFen: flows.chargesFen,
    refundsFen: flows.refundsFen,
    expectedChangeFen,
    actualChangeFen,
    unexplainedFen: actualChangeFen === null ? null : actualChangeFen - expectedChangeFen,
  };
}

/** The headline's verdict: clean only when every order was compared without a difference and the balance is explained to the fen. */
export function reconcileVerdict(differences: number, balance: BalanceCheck): ReconcileVerdict {
  const balanceState = balance.unexplainedFen === null ? 'notChecked' : balance.unexplainedFen === 0 ? 'matches' : 'differs';
  const balanceMissing = balanceState !== 'notChecked' ? null : balance.start.known ? 'end' : 'start';
  const status = balanceState === 'notChecked' ? 'notChecked' : differences > 0 || balanceState === 'differs' ? 'differences' : 'clean';
  return { status, balance: balanceState, balanceMissing };
}
