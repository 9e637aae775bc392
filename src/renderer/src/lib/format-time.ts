// Times cross the boundary as Unix seconds; they are shown in the buyer's language and in this page's
// time zone (the buyer's), by the one formatter of shared/date-time.ts (contract §16).
import { formatDate, formatDateTime, formatMonthDay, formatTimeOfDay, runtimeTimeZone, type TimeStyle } from '../../../shared/date-time';
import type { Locale } from '../i18n/locale';

const styleOf = (locale: Locale): TimeStyle => ({ language: locale, timeZone: runtimeTimeZone() });

/** `2026-11-28 02:21:23` in Chinese, `Nov 28, 2026, 2:21:23 AM` in English; "—" when there is no time. */
export function formatSeconds(seconds: number | null | undefined, locale: Locale): string {
  if (seconds === null || seconds === undefined) return '—';
  return formatDateTime(seconds * 1000, styleOf(locale));
}

/** The same, from milliseconds (the connection state and the books count in ms). */
export function formatMs(ms: number, locale: Locale): string {
  return formatDateTime(ms, styleOf(locale));
}

/** Only the date: `2026-11-28` / `Nov 28, 2026`. */
export function formatDaySeconds(seconds: number, locale: Locale): string {
  return formatDate(seconds * 1000, styleOf(locale));
}

/** A short date for an axis or a range: `11-28` / `Nov 28`. */
export function formatShortDate(seconds: number, locale: Locale): string {
  return formatMonthDay(seconds * 1000, styleOf(locale));
}

/** A short date from milliseconds (a chart's time axis). */
export function formatShortDateMs(ms: number, locale: Locale): string {
  return formatMonthDay(ms, styleOf(locale));
}

/** Only the time, where the day is plain ("将于 10:29:55 重试"): `HH:mm:ss` / `10:29:55 AM`. */
export function formatClock(seconds: number, locale: Locale): string {
  return formatTimeOfDay(seconds * 1000, styleOf(locale));
}
