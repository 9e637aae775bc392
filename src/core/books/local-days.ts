// The buyer's days. A day of the books is a calendar day in the buyer's time zone (an IANA name the
// caller gives: the page's own zone on the dashboard, the process's zone in the CLI), never UTC: a
// buyer in Shanghai who orders at 07:00 expects that order on today's bar, not yesterday's. Days
// follow the zone's rules, so a day with a daylight-saving change is 23 or 25 hours long.

export class LocalDayError extends Error {
  override readonly name = 'LocalDayError';
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter giving the zone's wall clock as numbers; refuses a zone Intl does not know. */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  const known = formatters.get(timeZone);
  if (known !== undefined) return known;
  let made: Intl.DateTimeFormat;
  try {
    made = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  } catch {
    throw new LocalDayError(`unknown time zone: ${timeZone}`);
  }
  formatters.set(timeZone, made);
  return made;
}

/** The zone of the process core runs in: the buyer's, in the desktop app and the CLI. */
export function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function checkTimeZone(timeZone: string): void {
  wallClock(timeZone);
}

interface Wall {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function wallAt(timeZone: string, atMs: number): Wall {
  const parts: Record<string, number> = {};
  for (const part of wallClock(timeZone).formatToParts(new Date(atMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts['year'] ?? 0, month: parts['month'] ?? 1, day: parts['day'] ?? 1, hour: parts['hour'] ?? 0, minute: parts['minute'] ?? 0, second: parts['second'] ?? 0 };
}

/** How far the zone's wall clock is ahead of UTC at that instant (ms). */
function offsetAt(timeZone: string, atMs: number): number {
  const w = wallAt(timeZone, atMs);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(atMs / 1000) * 1000;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The local day ("YYYY-MM-DD") an instant falls on. */
export function localDayOf(timeZone: string, atMs: number): string {
  const w = wallAt(timeZone, atMs);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
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
  const { year, month, day } = parseDay(dayText);
  const next = new Date(Date.UTC(year, month - 1, day) + MS_PER_DAY);
  return `${pad(next.getUTCFullYear(), 4)}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
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
