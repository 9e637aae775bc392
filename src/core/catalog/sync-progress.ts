// The whole sync's progress from the real remaining work of each phase, counted in requests (the unit
// the quota spends): the phase's place among the phases, its done/total, and an overall fraction.
//
// Why it is computed like this (issue 14: "54 %" for a minute, "templates 59 of 108 · about 2 s left"):
// - A phase's total is only used once it is known exactly or bounded from above (details: the products
//   that need one; templates: the variants stored plus every variant the list announced for products
//   whose detail is still to come). Over-counting the rest keeps the fraction from jumping back when
//   the real count arrives; while any phase still to come has no count or bound the fraction is null
//   and the screen shows an indeterminate bar instead of a number that would sit or fall.
// - The fraction never goes back within a run (a bound can be wrong when the merchant adds products
//   while we page): it holds until the work catches up.
import { SYNC_WORK_PHASES, type SyncWorkPhase } from '../../shared/ipc/views/catalog';

export interface PhaseWork {
  readonly done: number;
  /** Exact request count, or an upper bound of it; null while unknown. */
  readonly total: number | null;
}

export type SyncWork = Readonly<Record<SyncWorkPhase, PhaseWork>>;

export const UNKNOWN_WORK: SyncWork = {
  list: { done: 0, total: null },
  details: { done: 0, total: null },
  templates: { done: 0, total: null },
};

/** The phases' own share: done over total, null when some phase has no count or bound yet. */
export function workFraction(work: SyncWork): number | null {
  let done = 0;
  let total = 0;
  for (const phase of SYNC_WORK_PHASES) {
    const { done: phaseDone, total: phaseTotal } = work[phase];
    if (phaseTotal === null) return null;
    done += Math.min(phaseDone, phaseTotal);
    total += phaseTotal;
  }
  return total === 0 ? 1 : done / total;
}

/** The requests still to send, or null while some phase's work is unknown. */
export function remainingRequests(work: SyncWork): number | null {
  let remaining = 0;
  for (const phase of SYNC_WORK_PHASES) {
    const { done, total } = work[phase];
    if (total === null) return null;
    remaining += Math.max(0, total - done);
  }
  return remaining;
}

/**
 * The fraction shown: never below one already shown in this run. Once a number was shown it is
 * not taken back to an indeterminate bar either (knowledge of the work only grows within a run).
 */
export function nextFraction(previous: number | null, work: SyncWork): number | null {
  const now = workFraction(work);
  if (now === null) return previous;
  return previous === null ? now : Math.max(previous, now);
}

export function phaseIndexOf(phase: SyncWorkPhase): number {
  return SYNC_WORK_PHASES.indexOf(phase) + 1;
}
