// Checks that the public callback URL really reaches this receiver: one POST of a well-formed event
// of a type no merchant sends, through the tunnel, answered OK, and seen stored by our own receiver
// (another server answering OK at that address would not pass). The receiver stores it like any
// unknown type (acknowledged, never acted on), which is exactly what proves the path.
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const PROBE_EVENT_TYPE = 'procuredesk.path-check';

export function newProbeEventId(): string {
  return `probe_${randomBytes(12).toString('hex')}`;
}

export function probeBody(eventId: string, nowMs: number): string {
  return JSON.stringify({ eventId, eventType: PROBE_EVENT_TYPE, occurredAt: Math.floor(nowMs / 1000) });
}

/** POSTs the body; resolves true on HTTP 200 with a body of OK (interface v1 §6.4.2), false otherwise. Never rejects. */
export function postProbe(url: string, body: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(false);
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : null;
    if (send === null) {
      resolve(false);
      return;
    }
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const outgoing = send(
      target,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < 64) text += chunk;
        });
        res.on('end', () => finish(res.statusCode === 200 && text.trim().toLowerCase() === 'ok'));
        res.on('error', () => finish(false));
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish(false);
    }, timeoutMs);
    outgoing.on('error', () => finish(false));
    outgoing.end(body);
  });
}
