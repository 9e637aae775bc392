// The web host's session door, `/session` (browser-sessions.ts holds the sessions): where the page
// trades the one-time launch secret from its URL fragment for the session cookie, and asks whether it
// has one. Only the page itself may ask (Origin), and only as JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionRequestSchema, WEB_SESSION_BODY_MAX_BYTES } from '../shared/ipc/web-socket-protocol';
import type { Logger } from '../core';
import type { BrowserSessions } from './browser-sessions';
import { COMMON_HEADERS } from './web-page-security';

function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...COMMON_HEADERS, ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(value));
}

/** The body as text, or null when it is larger than a session request can be. */
async function readSmallBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Keep draining without storing, so the client gets the answer rather than a reset.
    if (size <= WEB_SESSION_BODY_MAX_BYTES) chunks.push(buffer);
  }
  return size > WEB_SESSION_BODY_MAX_BYTES ? null : Buffer.concat(chunks).toString('utf8');
}

/**
 * `/session`. GET: 204 when the cookie names a live session, else 401 (the page asks before it opens
 * the socket, so it can say why nothing works). POST: trades a one-time launch secret for the cookie.
 * The POST must come from the page itself (Origin) as JSON: a form or a `text/plain` fetch from another
 * site is refused before its body is read, although it could not know a secret anyway.
 */
export function serveSession(request: IncomingMessage, response: ServerResponse, origin: string, sessions: BrowserSessions, logger: Logger): void {
  if (request.method === 'GET' || request.method === 'HEAD') {
    response.writeHead(sessions.hasSession(request.headers.cookie) ? 204 : 401, { ...COMMON_HEADERS, 'Cache-Control': 'no-store' });
    response.end();
    return;
  }
  if (request.method !== 'POST') {
    json(response, 405, { error: 'method not allowed' }, { Allow: 'GET, HEAD, POST' });
    return;
  }
  if (request.headers.origin !== origin) {
    request.resume();
    json(response, 403, { error: 'a session is opened only by this host\'s own page' });
    return;
  }
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    request.resume();
    json(response, 415, { error: 'send the launch secret as application/json' });
    return;
  }
  readSmallBody(request).then(
    (text) => {
      let parsed: unknown;
      try {
        parsed = text === null ? null : JSON.parse(text);
      } catch {
        parsed = null;
      }
      const body = sessionRequestSchema.safeParse(parsed);
      const session = body.success ? sessions.redeem(body.data.secret) : null;
      if (session === null) {
        // The secret given is not logged: it might be a real one mistyped.
        logger.warn('web host: refused a launch secret (unknown or already used)');
        json(response, 403, { error: 'this link was already used or is not from this host: ask the terminal running `npm run web` for a new one (press Enter there)' });
        return;
      }
      logger.info('web host: a browser opened a session');
      response.writeHead(204, { ...COMMON_HEADERS, 'Set-Cookie': sessions.cookieFor(session), 'Cache-Control': 'no-store' });
      response.end();
    },
    () => {
      if (!response.headersSent) json(response, 400, { error: 'the request could not be read' });
    },
  );
}
