// The buyer's days. A day of the books is a calendar day in the buyer's time zone (an IANA name the
// caller gives: the page's own zone on the dashboard, the process's zone in the CLI), never UTC: a
// buyer in Shanghai who orders at 07:00 expects that order on today's bar, not yesterday's. Days
// follow the zone's rules, so a day with a daylight-saving change is 23 or 25 hours long.

import { addDays, dayKeyAt, runtimeTimeZone, UnknownTimeZoneError, wallClockAt, type WallClock } from '../../shared/date-time';

export class LocalDayError extends Error {
  override readonly name = 'LocalDayError';
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The zone's wall clock (shared/date-time.ts, the one home of Intl's clock); an unknown zone is a LocalDayError here. */
function wallAt(timeZone: string, atMs: number): WallClock {
  try {
    return wallClockAt(timeZone, atMs);
  } catch (error) {
    if (error instanceof UnknownTimeZoneError) throw new LocalDayError(error.message);
    throw error;
  }
}

/** The zone of the process core runs in: the buyer's, in the desktop app and the CLI. */
export function processTimeZone(): string {
  return runtimeTimeZone();
}

export function checkTimeZone(timeZone: string): void {
  wallAt(timeZone, 0);
}

/** How far the zone's wall clock is ahead of UTC at that instant (ms). */
function offsetAt(timeZone: string, atMs: number): number {
  const w = wallAt(timeZone, atMs);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(atMs / 1000) * 1000;
}

/** The local day ("YYYY-MM-DD") an instant falls on. */
export function localDayOf(timeZone: string, atMs: number): string {
  checkTimeZone(timeZone);
  return dayKeyAt(timeZone, atMs);
}

function parseDay(text: string): { year: number; month: number; day: number } {
  const match = DAY.exec(text);
  if (!match) throw new LocalDayError(`not a day (YYYY-MM-DD): ${text}`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (year < 1970 || probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) throw new LocalDayError(`no such day: ${text}`);
  return { year, month, day };
}

/** The instant the local day starts (its first millisecond in that zone). */
export function startOfLocalDay(timeZone: string, dayText: string): number {
  const { year, month, day } = parseDay(dayText);
  const wallMidnight = Date.UTC(year, month - 1, day);
  // Twice: the offset at the guess may differ from the offset at the answer across a DST change.
  const first = wallMidnight - offsetAt(timeZone, wallMidnight);
  const second = wallMidnight - offsetAt(timeZone, first);
  // A zone that skips midnight (DST at 00:00) starts the day at the first instant that is that day.
  return localDayOf(timeZone, second) === dayText ? second : first;
}

/** The day after (calendar arithmetic, zone-free). */
export function nextDay(dayText: string): string {
  parseDay(dayText);
  return addDays(dayText, 1);
}

/** Every day from `from` to `to`, both included; refused when `to` is before `from` or the range is longer than maxDays. */
export function daysBetween(from: string, to: string, maxDays: number): string[] {
  parseDay(from);
  parseDay(to);
  if (to < from) throw new LocalDayError(`the range ends (${to}) before it starts (${from})`);
  const days: string[] = [];
  for (let d = from; d <= to; d = nextDay(d)) {
    days.push(d);
    if (days.length > maxDays) throw new LocalDayError(`the range is longer than ${maxDays} days`);
  }
  return days;
}
