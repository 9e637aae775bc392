// A deliberately plain HTTPS client for the conformance suite: node:https with the sandbox's CA, no
// retries, no interpretation, so each test sees exactly what the server sent.
import { request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { RunningSandbox } from './sandbox-process';
import { controlHeaders } from './control-auth';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed envelope; undefined when the body was not JSON. */
  json: Envelope<T> | undefined;
}

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
  requestId: string;
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Raw body text, sent as is (for malformed-body tests). */
  rawBody?: string;
  /** Credentials; defaults to the sandbox's own account, `false` sends none. */
  auth?: { userId: string; apiKey: string } | false;
  headers?: Record<string, string>;
}

export function callApi<T = unknown>(sandbox: RunningSandbox, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(sandbox.baseUrl + path);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const auth = options.auth === undefined ? { userId: sandbox.userId, apiKey: sandbox.apiKey } : options.auth;
  if (auth) {
    headers['X-Service-User-Id'] = auth.userId;
    headers['X-Service-Key'] = auth.apiKey;
  }
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, ca: sandbox.ca, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: Envelope<T> | undefined;
        try {
          json = JSON.parse(text) as Envelope<T>;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Calls the sandbox's plain-HTTP control API; throws unless it answers 2xx. */
export async function control<T = unknown>(sandbox: RunningSandbox, method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: controlHeaders(sandbox.controlToken, method) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(sandbox.controlUrl + path, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${path} → ${res.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}
