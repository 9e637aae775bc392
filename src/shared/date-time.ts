// The one home of how the app writes a date or a time (contract §16): Chinese back offices write
// `YYYY-MM-DD HH:mm:ss`, so the zh-CN screens do; English screens use the locale's own medium form;
// files and the CLI's text use `YYYY-MM-DD HH:mm:ss`, whatever the language, in the buyer's zone.
// Every function takes the time zone (an IANA name): core counts days in the buyer's zone, not its own.
// The only place in src that calls Intl.DateTimeFormat or reads a Date's wall clock (a test guards it).

export type TimeLanguage = 'zh-CN' | 'en';

export interface TimeStyle {
  readonly language: TimeLanguage;
  readonly timeZone: string;
}

export class UnknownTimeZoneError extends Error {
  override readonly name = 'UnknownTimeZoneError';
}

/** A zone's wall clock at an instant, as numbers (month 1–12, hour 0–23). */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const cache = new Map<string, Intl.DateTimeFormat>();

/** One formatter per (kind, zone), made once: Intl formatters are slow to build and tables format thousands of cells. */
function formatter(kind: string, timeZone: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  let made: Intl.DateTimeFormat;
  try {
    made = make();
  } catch {
    throw new UnknownTimeZoneError(`unknown time zone: ${timeZone}`);
  }
  cache.set(key, made);
  return made;
}

const numeric = (timeZone: string): Intl.DateTimeFormat =>
  formatter('wall', timeZone, () => new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }));

/** The zone of this process or page: the buyer's, in the desktop app, the web host's page and the CLI. */
export function runtimeTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Refuses (UnknownTimeZoneError) a zone this runtime does not know. */
export function checkTimeZone(timeZone: string): void {
  numeric(timeZone);
}

export function wallClockAt(timeZone: string, atMs: number): WallClock {
  const parts: Record<string, number> = {};
  for (const part of numeric(timeZone).formatToParts(new Date(atMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts['year'] ?? 0, month: parts['month'] ?? 1, day: parts['day'] ?? 1, hour: parts['hour'] ?? 0, minute: parts['minute'] ?? 0, second: parts['second'] ?? 0 };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const day = (w: WallClock): string => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
const clock = (w: WallClock): string => `${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;

/** The calendar day ("YYYY-MM-DD") an instant falls on in the zone: the key days are counted by. */
export function dayKeyAt(timeZone: string, atMs: number): string {
  return day(wallClockAt(timeZone, atMs));
}

/** `YYYY-MM-DD HH:mm:ss` in the zone, for files and the CLI (language-free, sorts as text, Excel and WPS read it as a date-time). */
export function formatStamp(atMs: number, timeZone: string): string {
  const w = wallClockAt(timeZone, atMs);
  return `${day(w)} ${clock(w)}`;
}

/** `YYYYMMDD-HHmmss` in the zone: a file name's part (no colon, which Windows refuses). */
export function fileNameStamp(atMs: number, timeZone: string): string {
  const w = wallClockAt(timeZone, atMs);
  return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}-${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
}

/** The zone's offset from UTC at that instant, as `UTC+08:00`. */
export function formatUtcOffset(atMs: number, timeZone: string): string {
  const w = wallClockAt(timeZone, atMs);
  const minutes = Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(atMs / 1000) * 1000) / 60_000);
  return `UTC${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

const english = (kind: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => formatter(`en-${kind}`, timeZone, () => new Intl.DateTimeFormat('en', { ...options, timeZone }));

/** A date and time on a screen: `2026-11-28 02:21:23` in Chinese, `Nov 28, 2026, 2:21:23 AM` in English. */
export function formatDateTime(atMs: number, style: TimeStyle): string {
  if (style.language === 'zh-CN') return formatStamp(atMs, style.timeZone);
  return english('dateTime', style.timeZone, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(atMs));
}

/** A date on a screen: `2026-11-28` in Chinese, `Nov 28, 2026` in English. */
export function formatDate(atMs: number, style: TimeStyle): string {
  if (style.language === 'zh-CN') return dayKeyAt(style.timeZone, atMs);
  return english('date', style.timeZone, { dateStyle: 'medium' }).format(new Date(atMs));
}

/** Only the time, where the day is plain from the context ("将于 10:29:55 重试"): `HH:mm:ss`, or `10:29:55 AM`. */
export function formatTimeOfDay(atMs: number, style: TimeStyle): string {
  if (style.language === 'zh-CN') return clock(wallClockAt(style.timeZone, atMs));
  return english('time', style.timeZone, { timeStyle: 'medium' }).format(new Date(atMs));
}

/** A short date on a chart's axis: `11-28` in Chinese, `Nov 28` in English. */
export function formatMonthDay(atMs: number, style: TimeStyle): string {
  if (style.language === 'zh-CN') {
    const w = wallClockAt(style.timeZone, atMs);
    return `${pad(w.month)}-${pad(w.day)}`;
  }
  return english('monthDay', style.timeZone, { month: 'short', day: 'numeric' }).format(new Date(atMs));
}

/** A calendar day ("YYYY-MM-DD", as core and the pickers give it) shortened for an axis, without a zone: it already is a day. */
export function formatDayKeyShort(dayKey: string, language: TimeLanguage): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dayKey);
  if (match === null) return dayKey;
  return formatMonthDay(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12), { language, timeZone: 'UTC' });
}

/** The calendar day `n` days after (or before, n < 0) a "YYYY-MM-DD" day; zone-free calendar arithmetic. */
export function addDays(dayKey: string, n: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dayKey);
  if (match === null) throw new RangeError(`not a day (YYYY-MM-DD): ${dayKey}`);
  return dayKeyAt('UTC', Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + n));
}

/** A time zone as a buyer names it: its long name in the language ("中国标准时间"), or null when the platform has none. */
export interface TimeZoneName {
  readonly name: string | null;
  /** "UTC+8", "UTC-3:30", "UTC" */
  readonly offset: string;
}

function zonePart(timeZone: string, locale: string, style: 'long' | 'shortOffset', atMs: number): string | null {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: style }).formatToParts(new Date(atMs));
    return parts.find((piece) => piece.type === 'timeZoneName')?.value ?? null;
  } catch {
    return null; // an id the platform does not know: the caller shows the id alone
  }
}

/** The zone's name and offset from the platform's own zone data, or null for an unknown id. */
export function timeZoneName(timeZone: string, language: TimeLanguage, atMs: number): TimeZoneName | null {
  const gmt = zonePart(timeZone, 'en', 'shortOffset', atMs);
  if (gmt === null) return null;
  const name = zonePart(timeZone, language, 'long', atMs);
  // A long name that is only the offset again (GMT+08:00) says nothing more.
  return { name: name === null || /^(GMT|UTC)/.test(name) ? null : name, offset: gmt.replace(/^GMT/, 'UTC') };
}
