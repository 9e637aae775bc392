// HttpPort over node:https. HTTPS only; a custom CA (the sandbox's) is trusted only when given, on
// this agent alone. Responses are bounded in size and time, and a cut-off body is a failure, not data.
import { Agent, request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { failureOfReason, TransportError, transportReasonOf, type HttpPort } from './http-port';

export interface NodeHttpsOptions {
  /** PEM of an extra CA to trust (a sandbox); the system roots are replaced by it only on this agent. */
  ca?: string;
  maxResponseBytes?: number;
}

function classify(error: NodeJS.ErrnoException): TransportError {
  const code = error.code ?? '';
  const reason = transportReasonOf(code);
  const failure = failureOfReason(reason);
  return new TransportError(failure, failure === 'tls' ? `TLS failure (${code})` : `connection failure (${code || error.message})`, null, false, reason);
}

function flatHeaders(res: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function createNodeHttpsPort(options: NodeHttpsOptions = {}): HttpPort & { close(): void } {
  const maxBytes = options.maxResponseBytes ?? 8 * 1024 * 1024;
  const agent = new Agent({ keepAlive: true, maxSockets: 16, ...(options.ca ? { ca: options.ca } : {}) });
  const port: HttpPort = (req) =>
    new Promise((resolve, reject) => {
      const url = new URL(req.url);
      if (url.protocol !== 'https:') {
        reject(new TransportError('insecure', 'merchant addresses must use HTTPS'));
        return;
      }
      let settled = false;
      // Known once the answer's headers are in: a body cut off later still names its request.
      let requestId: string | null = null;
      // Whether a TCP connection to the merchant existed for this request at any moment (a reused
      // keep-alive socket, or a new one whose connect succeeded). Only without one can a failure say
      // the merchant surely received nothing; TLS, resets and timeouts after connecting cannot.
      let connected = false;
      const fail = (error: TransportError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outgoing.destroy();
        reject(new TransportError(error.failure, error.message, requestId, !connected && requestId === null, error.reason));
      };
      const outgoing = request(url, { method: req.method, headers: req.headers, agent }, (res) => {
        const header = res.headers['x-request-id'];
        if (typeof header === 'string' && header !== '') requestId = header;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) fail(new TransportError('tooLarge', `response larger than ${maxBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on('aborted', () => fail(new TransportError('connection', 'response cut off')));
        res.on('error', (error: NodeJS.ErrnoException) => fail(classify(error)));
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) {
            fail(new TransportError('connection', 'response cut off'));
            return;
          }
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: flatHeaders(res), body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      outgoing.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      const timer = setTimeout(() => fail(new TransportError('timeout', `no complete answer within ${req.timeoutMs} ms`)), req.timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => fail(classify(error)));
      if (req.body !== undefined) outgoing.write(req.body);
      outgoing.end();
    });
  return Object.assign(port, { close: () => agent.destroy() });
}
