// One webhook send: a single POST and the interface v1 §6.4 verdict on its answer. node:http(s) is used
// directly because fetch follows redirects by default and a 3xx must count as a failure, with the
// redirect target receiving nothing.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isLoopbackHost } from '../domain/address-rules';

export const WEBHOOK_USER_AGENT = 'MerchantSandbox-Webhook/1.0';
/** More than any acknowledgement needs; a receiver streaming more is not acknowledging. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  status: number | null;
  ok: boolean;
  error: string | null;
}

export interface SendOptions {
  url: string;
  body: Buffer;
  /** Real milliseconds for connect, request and the whole response together. */
  timeoutMs: number;
  /** CA certificates accepted for https callbacks besides the system roots (already merged). */
  ca: string[] | undefined;
  signal: AbortSignal;
}

/** Interface v1 §6.4.2: status 200 and a body that, trimmed and compared without case, equals OK. */
export function isAcknowledgement(status: number, body: string): boolean {
  return status === 200 && body.trim().toLowerCase() === 'ok';
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

function quote(body: string): string {
  return JSON.stringify(body.length > 60 ? `${body.slice(0, 60)}…` : body);
}

export function sendWebhook(options: SendOptions): Promise<SendResult> {
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let req: ClientRequest | undefined;
    let status: number | null = null;
    const finish = (result: SendResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      // Whatever is still open (a slow body, a late connect) is of no further interest.
      req?.destroy();
      resolve(result);
    };
    const fail = (error: string): void => finish({ status, ok: false, error });
    const onAbort = (): void => fail('aborted: dispatcher stopped');
    const timer = setTimeout(() => fail(`no answer within ${options.timeoutMs} ms`), options.timeoutMs);
    // The open socket keeps the process alive while a send matters; the timer alone should not.
    timer.unref();
    if (options.signal.aborted) return onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });

    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return fail('invalid callback URL');
    }
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') return fail(`unsupported callback URL scheme ${url.protocol}`);

    const onResponse = (res: IncomingMessage): void => {
      status = res.statusCode ?? null;
      if (status !== 200) {
        // Neither a redirect nor any other status can succeed, whatever the body says.
        return fail(`HTTP status ${status ?? 'unknown'}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) return fail(`response body larger than ${MAX_RESPONSE_BYTES} bytes`);
        chunks.push(chunk);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (isAcknowledgement(200, body)) finish({ status, ok: true, error: null });
        else fail(body.length === 0 ? 'empty response body' : `response body is not OK: ${quote(body)}`);
      });
      res.on('error', (error) => fail(describe(error)));
    };

    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(options.body.length),
      'User-Agent': WEBHOOK_USER_AGENT,
      Accept: 'text/plain, */*',
    };
    try {
      // agent false: a fresh connection per send, so a stale pooled socket can never turn into a
      // failure the receiver did not cause, and the timeout honestly includes the connect.
      req = secure
        ? httpsRequest(url, {
            method: 'POST',
            headers,
            agent: false,
            // The loopback policy admits local receivers, which cannot hold a publicly trusted certificate.
            rejectUnauthorized: !isLoopbackHost(url.hostname),
            ...(options.ca ? { ca: options.ca } : {}),
          }, onResponse)
        : httpRequest(url, { method: 'POST', headers, agent: false }, onResponse);
    } catch (error) {
      return fail(describe(error));
    }
    req.on('error', (error) => fail(describe(error)));
    req.end(options.body);
  });
}
