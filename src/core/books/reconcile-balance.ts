// The balance check of a reconciliation (contract §12.2): the balance at the range's start and end,
// as the balance history saw it, against what the app recorded moving in between. A boundary no run of
// answers covers is not known and is said so, with the nearest answers either side; nothing is guessed.
import type { BalanceCheck, BoundaryBalance } from '../../shared/ipc/views/reconcile';
import type { BalanceAt } from './balance-history';

export function boundaryBalance(at: BalanceAt, atMs: number): BoundaryBalance {
  if (at.kind === 'seen') {
    return { known: true, atMs, balanceFen: at.observation.balanceFen, seenFromMs: at.observation.firstSeenAtMs, seenUntilMs: at.observation.lastSeenAtMs };
  }
  return {
    known: false,
    atMs,
    before: at.before === null ? null : { balanceFen: at.before.balanceFen, lastSeenAtMs: at.before.lastSeenAtMs },
    after: at.after === null ? null : { balanceFen: at.after.balanceFen, firstSeenAtMs: at.after.firstSeenAtMs },
  };
}

/** Money the app recorded moving in the range, fen: charges out, refunds back. */
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
