// The days a reconciliation covers, in the buyer's local time zone (the process's, where core runs;
// the day rules themselves are local-days.ts): a day starts at local midnight and ends one second
// before the next local midnight, so a day of a daylight-saving change has 23 or 25 hours and is
// still one day. The merchant's list is asked with
// createdFrom/createdTo in Unix seconds, inclusive (contract §7.5).
import { DAY_PATTERN, MAX_RECONCILE_DAYS, type ReconcileInput } from '../../shared/ipc/views/reconcile';
import { LocalDayError, localDayOf, nextDay, processTimeZone, startOfLocalDay } from './local-days';

export class ReconcileRangeError extends Error {
  override readonly name = 'ReconcileRangeError';
  constructor(
    message: string,
    readonly field: 'fromDay' | 'toDay',
  ) {
    super(message);
  }
}

export interface ReconcileRange {
  readonly fromDay: string;
  readonly toDay: string;
  /** Local midnight starting fromDay, Unix seconds. */
  readonly createdFrom: number;
  /** One second before local midnight after toDay, Unix seconds (inclusive). */
  readonly createdTo: number;
}

/** The local day of a moment, in the process's zone. */
export function localDay(ms: number): string {
  return localDayOf(processTimeZone(), ms);
}

/** Local midnight starting `day`, ms; null for what is not a day (2026-02-30). */
function localMidnightMs(day: string): number | null {
  if (!DAY_PATTERN.test(day)) return null;
  try {
    return startOfLocalDay(processTimeZone(), day);
  } catch (error) {
    if (error instanceof LocalDayError) return null;
    throw error;
  }
}

/** Yesterday in the buyer's time zone: the default range. */
export function yesterday(nowMs: number): string {
  const today = localDay(nowMs);
  return localDay(startOfLocalDay(processTimeZone(), today) - 1);
}

/** The range of the buyer's input: both absent is yesterday, one absent is the other's day. */
export function reconcileRange(input: ReconcileInput, nowMs: number): ReconcileRange {
  const fromDay = input.fromDay ?? input.toDay ?? yesterday(nowMs);
  const toDay = input.toDay ?? fromDay;
  const from = localMidnightMs(fromDay);
  if (from === null) throw new ReconcileRangeError(`${fromDay} is not a day (YYYY-MM-DD)`, 'fromDay');
  const toStart = localMidnightMs(toDay);
  if (toStart === null) throw new ReconcileRangeError(`${toDay} is not a day (YYYY-MM-DD)`, 'toDay');
  if (toDay < fromDay) throw new ReconcileRangeError(`the range ends (${toDay}) before it starts (${fromDay})`, 'toDay');
  if (fromDay > localDay(nowMs)) throw new ReconcileRangeError(`${fromDay} has not begun yet`, 'fromDay');
  const end = localMidnightMs(nextDay(toDay)) ?? toStart + 86_400_000;
  const days = Math.round((end - from) / 86_400_000);
  if (days > MAX_RECONCILE_DAYS) throw new ReconcileRangeError(`at most ${MAX_RECONCILE_DAYS} days at once (this range has ${days})`, 'toDay');
  return { fromDay, toDay, createdFrom: Math.floor(from / 1000), createdTo: Math.floor(end / 1000) - 1 };
}
