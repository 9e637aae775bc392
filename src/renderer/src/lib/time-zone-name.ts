// A time zone as a buyer names it (issue 26): its name in the app's language and its offset from UTC
// ("中国标准时间", "UTC+8"), from the platform's own time-zone data; the IANA id (Asia/Shanghai) is
// detail for the technical reader, shown apart.
import type { Locale } from '../i18n/locale';

export interface TimeZoneName {
  /** The zone's long name in the locale, or null when the platform has none (then the offset says it). */
  readonly name: string | null;
  /** "UTC+8", "UTC-3:30", "UTC" */
  readonly offset: string;
}

function part(timeZone: string, locale: Locale, style: 'long' | 'shortOffset', at: Date): string | null {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: style }).formatToParts(at);
    return parts.find((piece) => piece.type === 'timeZoneName')?.value ?? null;
  } catch {
    // An id the platform does not know: the caller shows the id alone.
    return null;
  }
}

export function timeZoneName(timeZone: string, locale: Locale, at: Date = new Date()): TimeZoneName | null {
  const gmt = part(timeZone, 'en', 'shortOffset', at);
  if (gmt === null) return null;
  const offset = gmt.replace(/^GMT/, 'UTC');
  const name = part(timeZone, locale, 'long', at);
  // A long name that is only the offset again (GMT+08:00) says nothing more.
  return { name: name === null || /^(GMT|UTC)/.test(name) ? null : name, offset };
}
