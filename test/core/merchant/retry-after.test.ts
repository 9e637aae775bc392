// Retry-After as RFC 9110 allows it: delta-seconds or an HTTP-date, the date measured against the
// answer's own Date header when present; unreadable values are ignored, a past date means now.
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../src/core/merchant/retry-after';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const http = (ms: number): string => new Date(ms).toUTCString();

describe('retryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterMs({ 'retry-after': '120' }, NOW)).toBe(120_000);
    expect(retryAfterMs({ 'retry-after': ' 0 ' }, NOW)).toBe(0);
    expect(retryAfterMs({ 'retry-after': '86400' }, NOW)).toBe(86_400_000);
  });

  it('reads an HTTP-date against our clock, or against the answer’s Date header when it has one', () => {
    expect(retryAfterMs({ 'retry-after': http(NOW + 90_000) }, NOW)).toBe(90_000);
    // The merchant's clock is an hour behind ours: its Date header says so, the wait stays 30 s.
    const theirs = NOW - 3_600_000;
    expect(retryAfterMs({ 'retry-after': http(theirs + 30_000), date: http(theirs) }, NOW)).toBe(30_000);
    // The obsolete RFC 850 form still parses as a date.
    expect(retryAfterMs({ 'retry-after': 'Tuesday, 01-Jan-30 12:01:00 GMT' }, NOW)).toBe(60_000);
  });

  it('a date in the past is now; absent, empty, negative or unreadable values are ignored', () => {
    expect(retryAfterMs({ 'retry-after': http(NOW - 5000) }, NOW)).toBe(0);
    for (const value of ['', 'soon', '-5', '1.5', 'NaN', 'Wed, 99 Foo 2030 GMT']) expect(retryAfterMs({ 'retry-after': value }, NOW)).toBeNull();
    expect(retryAfterMs({}, NOW)).toBeNull();
  });
});
