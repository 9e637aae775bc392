// Who may drive the web host. Nothing the host serves over HTTP is a credential: a browser gets a
// session only by redeeming a one-time launch secret, which the host prints (in a URL fragment,
// `http://127.0.0.1:PORT/#k=SECRET`, so it never travels in a request line, a Referer or a log) to
// the terminal of the person who started it. Redeeming it once yields an HttpOnly, SameSite=Strict
// session cookie; the secret is then spent. Sessions live in this process's memory only, so they end
// with the host: a restarted host needs a new URL, and so does a second browser.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** More open sessions or unspent URLs than anyone needs; a cap keeps a runaway loop from filling memory. */
const MAX_SESSIONS = 64;
const MAX_PENDING_SECRETS = 16;
const SECRET_BYTES = 32;

export interface BrowserSessions {
  /** A fresh one-time secret for one more browser; the oldest unspent one is dropped past the cap. */
  issueLaunchSecret(): string;
  /** Spends the secret: a new session id, or null when it is unknown or already used. */
  redeem(secret: string): string | null;
  /** Whether the request's Cookie header carries a live session of this host. */
  hasSession(cookieHeader: string | undefined): boolean;
  /** The live session the Cookie header carries, or null: what a session-bound download is tied to. */
  sessionOf(cookieHeader: string | undefined): string | null;
  /** The Set-Cookie value for a redeemed session. */
  cookieFor(sessionId: string): string;
  /** The cookie's name: one per port, because browsers share cookies across the ports of a host. */
  readonly cookieName: string;
}

/** Compared by digest, in constant time, so neither the length nor a prefix of a secret leaks by timing. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function findIn(set: Set<string>, given: string): string | null {
  const wanted = digest(given);
  let found: string | null = null;
  for (const candidate of set) {
    if (timingSafeEqual(digest(candidate), wanted)) found = candidate;
  }
  return found;
}

/** The value of one cookie in a Cookie header, or null. */
export function readCookie(cookieHeader: string | undefined, name: string): string | null {
  if (cookieHeader === undefined) return null;
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

export function createBrowserSessions(port: number): BrowserSessions {
  const pending = new Set<string>();
  const sessions = new Set<string>();
  const cookieName = `procure_desk_session_${port}`;
  const mint = (): string => randomBytes(SECRET_BYTES).toString('base64url');
  const capped = (set: Set<string>, max: number): void => {
    // Sets keep insertion order: the first entry is the oldest.
    for (const oldest of set) {
      if (set.size <= max) break;
      set.delete(oldest);
    }
  };
  return {
    cookieName,
    issueLaunchSecret() {
      const secret = mint();
      pending.add(secret);
      capped(pending, MAX_PENDING_SECRETS);
      return secret;
    },
    redeem(secret) {
      const found = findIn(pending, secret);
      if (found === null) return null;
      pending.delete(found);
      const session = mint();
      sessions.add(session);
      capped(sessions, MAX_SESSIONS);
      return session;
    },
    hasSession(cookieHeader) {
      return this.sessionOf(cookieHeader) !== null;
    },
    sessionOf(cookieHeader) {
      const given = readCookie(cookieHeader, cookieName);
      return given === null ? null : findIn(sessions, given);
    },
    // No Expires/Max-Age: the browser forgets it when it closes, the host when it stops.
    cookieFor: (sessionId) => `${cookieName}=${sessionId}; Path=/; HttpOnly; SameSite=Strict`,
  };
}
