// Reads a Retry-After header (interface v1 §7.5 "a received Retry-After must be obeyed", interface v1 §8.2). RFC 9110
// allows two forms: delta-seconds ("120") and an HTTP-date ("Wed, 21 Oct 2026 07:28:00 GMT"). A date
// is measured against the answer's own Date header when it has one, so that a merchant whose clock
// differs from ours still gets the wait it meant; without one, against our clock. A date already
// past means "now" (0); anything unreadable is ignored (null), never a wait of NaN.

const DELTA_SECONDS = /^\d{1,10}$/;

function parseHttpDate(value: string): number | null {
  // Date.parse takes far more than HTTP-dates ("1", "2026"): require a weekday-comma or GMT form.
  if (!/^[A-Za-z]{3},? /.test(value) && !/GMT$/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}

/**
 * Milliseconds to wait from now (in the caller's clock), or null when the header is absent or
 * unreadable. `nowMs` is the caller's clock; headers are lower-case names.
 */
export function retryAfterMs(headers: Readonly<Record<string, string>>, nowMs: number): number | null {
  const value = headers['retry-after']?.trim();
  if (value === undefined || value === '') return null;
  if (DELTA_SECONDS.test(value)) return Number(value) * 1000;
  const at = parseHttpDate(value);
  if (at === null) return null;
  const sent = headers.date === undefined ? null : parseHttpDate(headers.date.trim());
  return Math.max(0, at - (sent ?? nowMs));
}
