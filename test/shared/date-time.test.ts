// The one date-time formatter: zh-CN writes YYYY-MM-DD HH:mm:ss, English the locale's medium form, files
// and the CLI one language-free stamp; always in the zone the caller names (Shanghai has no DST, New York does).
import { describe, expect, it } from 'vitest';
import {
  addDays,
  checkTimeZone,
  dayKeyAt,
  fileNameStamp,
  formatDate,
  formatDateTime,
  formatDayKeyShort,
  formatMonthDay,
  formatStamp,
  formatTimeOfDay,
  formatUtcOffset,
  UnknownTimeZoneError,
  wallClockAt,
} from '../../src/shared/date-time';

/** ICU may put a narrow no-break space before AM/PM; the words are what is compared. */
const plain = (text: string): string => text.replace(/[\u202f\u00a0]/g, ' ');

// 2026-11-27 18:21:23 UTC = 2026-11-28 02:21:23 in Shanghai = 2026-11-27 13:21:23 in New York (EST).
const AT = Date.UTC(2026, 10, 27, 18, 21, 23);
const SHANGHAI = { language: 'zh-CN', timeZone: 'Asia/Shanghai' } as const;
const SHANGHAI_EN = { language: 'en', timeZone: 'Asia/Shanghai' } as const;

describe('zh-CN: the back-office form', () => {
  it('writes YYYY-MM-DD HH:mm:ss, the date alone, the time alone and a short day', () => {
    expect(formatDateTime(AT, SHANGHAI)).toBe('2026-11-28 02:21:23');
    expect(formatDate(AT, SHANGHAI)).toBe('2026-11-28');
    expect(formatTimeOfDay(AT, SHANGHAI)).toBe('02:21:23');
    expect(formatMonthDay(AT, SHANGHAI)).toBe('11-28');
  });

  it('pads and uses a 24-hour clock: midnight is 00, the afternoon is 13 and more', () => {
    expect(formatDateTime(Date.UTC(2026, 0, 4, 16, 0, 0), SHANGHAI)).toBe('2026-01-05 00:00:00');
    expect(formatDateTime(Date.UTC(2026, 0, 4, 15, 59, 59), SHANGHAI)).toBe('2026-01-04 23:59:59');
    expect(formatTimeOfDay(Date.UTC(2026, 5, 1, 5, 7, 9), SHANGHAI)).toBe('13:07:09');
  });

  it('follows the zone it is given, not the process zone', () => {
    expect(formatDateTime(AT, { language: 'zh-CN', timeZone: 'America/New_York' })).toBe('2026-11-27 13:21:23');
    expect(formatDateTime(AT, { language: 'zh-CN', timeZone: 'UTC' })).toBe('2026-11-27 18:21:23');
    expect(dayKeyAt('Asia/Shanghai', AT)).toBe('2026-11-28');
    expect(dayKeyAt('America/New_York', AT)).toBe('2026-11-27');
  });
});

describe('English: the locale’s own form', () => {
  it('writes the medium date and time, with the month named (no 11/28 vs 28/11 doubt)', () => {
    expect(plain(formatDateTime(AT, SHANGHAI_EN))).toBe('Nov 28, 2026, 2:21:23 AM');
    expect(formatDate(AT, SHANGHAI_EN)).toBe('Nov 28, 2026');
    expect(plain(formatTimeOfDay(AT, SHANGHAI_EN))).toBe('2:21:23 AM');
    expect(formatMonthDay(AT, SHANGHAI_EN)).toBe('Nov 28');
  });

  it('is in the zone it is given too', () => {
    expect(plain(formatDateTime(AT, { language: 'en', timeZone: 'America/New_York' }))).toBe('Nov 27, 2026, 1:21:23 PM');
  });
});

describe('a zone with daylight saving (America/New_York, 2026)', () => {
  it('springs forward on 8 March: 01:59:59 EST is followed by 03:00:00 EDT', () => {
    const lastWinter = Date.UTC(2026, 2, 8, 6, 59, 59);
    const style = { language: 'zh-CN', timeZone: 'America/New_York' } as const;
    expect(formatDateTime(lastWinter, style)).toBe('2026-03-08 01:59:59');
    expect(formatDateTime(lastWinter + 1000, style)).toBe('2026-03-08 03:00:00');
    expect(formatUtcOffset(lastWinter, 'America/New_York')).toBe('UTC-05:00');
    expect(formatUtcOffset(lastWinter + 1000, 'America/New_York')).toBe('UTC-04:00');
  });

  it('falls back on 1 November: 01:30 happens twice, an hour apart', () => {
    const style = { language: 'zh-CN', timeZone: 'America/New_York' } as const;
    expect(formatDateTime(Date.UTC(2026, 10, 1, 5, 30), style)).toBe('2026-11-01 01:30:00');
    expect(formatDateTime(Date.UTC(2026, 10, 1, 6, 30), style)).toBe('2026-11-01 01:30:00');
    expect(formatUtcOffset(Date.UTC(2026, 10, 1, 5, 30), 'America/New_York')).toBe('UTC-04:00');
    expect(formatUtcOffset(Date.UTC(2026, 10, 1, 6, 30), 'America/New_York')).toBe('UTC-05:00');
  });

  it('Shanghai has no DST: +08:00 all year', () => {
    expect(formatUtcOffset(Date.UTC(2026, 0, 15), 'Asia/Shanghai')).toBe('UTC+08:00');
    expect(formatUtcOffset(Date.UTC(2026, 6, 15), 'Asia/Shanghai')).toBe('UTC+08:00');
    expect(formatUtcOffset(Date.UTC(2026, 6, 15), 'Asia/Kolkata')).toBe('UTC+05:30');
  });
});

describe('files and the CLI', () => {
  it('one language-free stamp and a file-name stamp without colons', () => {
    expect(formatStamp(AT, 'Asia/Shanghai')).toBe('2026-11-28 02:21:23');
    expect(fileNameStamp(AT, 'Asia/Shanghai')).toBe('20261128-022123');
    expect(fileNameStamp(AT, 'America/New_York')).toBe('20261127-132123');
  });
});

describe('days', () => {
  it('shortens a day key for an axis in each language, whatever the process zone', () => {
    expect(formatDayKeyShort('2026-11-26', 'zh-CN')).toBe('11-26');
    expect(formatDayKeyShort('2026-11-26', 'en')).toBe('Nov 26');
    expect(formatDayKeyShort('not a day', 'en')).toBe('not a day');
  });

  it('adds calendar days across months, years and leap days', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-11-28', -29)).toBe('2026-10-30');
    expect(() => addDays('11/28/2026', 1)).toThrow(RangeError);
  });

  it('gives the wall clock as numbers and refuses a zone it does not know', () => {
    expect(wallClockAt('Asia/Shanghai', AT)).toEqual({ year: 2026, month: 11, day: 28, hour: 2, minute: 21, second: 23 });
    expect(() => checkTimeZone('Mars/Olympus_Mons')).toThrow(UnknownTimeZoneError);
    expect(() => formatDateTime(AT, { language: 'en', timeZone: 'Mars/Olympus_Mons' })).toThrow(UnknownTimeZoneError);
  });
});
