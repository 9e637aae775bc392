// Who may use the control API. It can mint accounts, set balances, move orders and read every ledger,
// so a request must prove it comes from whoever started this sandbox, not merely from this machine:
// - a loopback Host (`127.0.0.1`, `localhost`, `[::1]` with this port): a DNS-rebound name pointing at
//   127.0.0.1 cannot make a browser page count as same-origin with the control port;
// - the control token, `Authorization: Bearer TOKEN`: printed on the sandbox's first line (stdout, to
//   whoever started it) or handed over in process (the web host's demo), never logged. A browser page
//   cannot send that header cross-origin without a CORS preflight, which this API never allows;
// - `Content-Type: application/json` on every POST: a cross-site form or `text/plain` fetch, which a
//   browser sends without asking, is refused before its body is read.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ControlError } from './control-error';

export const CONTROL_TOKEN_SCHEME = 'Bearer';

function sameSecret(given: string, expected: string): boolean {
  // Digests first: equal lengths for timingSafeEqual, and no length leak.
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function loopbackHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Throws the refusal for a request that may not use the control API; returns when it may. */
export function checkControlAccess(req: IncomingMessage, port: number, token: string): void {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!loopbackHosts(port).includes(host)) throw new ControlError(421, 'the control API answers only a loopback Host (127.0.0.1, localhost)');
  const authorization = req.headers.authorization ?? '';
  const prefix = `${CONTROL_TOKEN_SCHEME} `;
  if (!authorization.startsWith(prefix) || !sameSecret(authorization.slice(prefix.length), token)) {
    throw new ControlError(401, 'the control API needs its token: Authorization: Bearer <controlToken from the sandbox\'s first line>');
  }
  if (req.method === 'POST') {
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
    if (type !== 'application/json') throw new ControlError(415, 'control POSTs must be Content-Type: application/json');
  }
}
