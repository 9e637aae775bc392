// Whole local days, as the buyer picks them (the date pickers give YYYY-MM-DD), to the
// contract's received-at range: from the first day's midnight to the midnight after the last day
// (the range's end is exclusive), in the buyer's time zone.
import { dayKeyAt, runtimeTimeZone } from '../../../shared/date-time';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a YYYY-MM-DD day in Unix seconds; null when the text is not a day. */
export function dayStartSeconds(day: string): number | null {
  const match = DAY.exec(day);
  if (match === null) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : Math.floor(date.getTime() / 1000);
}

/** The received-at range of `from` to `to` inclusive; null unless both are days and in order. */
export function dayRange(from: string, to: string): { from: number; to: number } | null {
  const start = dayStartSeconds(from);
  const last = dayStartSeconds(to);
  if (start === null || last === null) return null;
  const match = DAY.exec(to);
  if (match === null) return null;
  // The next local midnight (not +86,400 s: a day with a DST change is 23 or 25 hours long).
  const end = Math.floor(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1).getTime() / 1000);
  return end > start ? { from: start, to: end } : null;
}

/** Today as YYYY-MM-DD in this page's zone (the date pickers' default). */
export function today(nowMs: number = Date.now()): string {
  return dayKeyAt(runtimeTimeZone(), nowMs);
}
