// The sandbox's control API answers only whoever started it (src/sandbox/control/control-access.ts):
// a loopback Host, its own bearer token, and JSON on POST. Driven over real HTTP with raw requests, so
// that the Host and Origin headers reach the server exactly as a rebinding page or a cross-site form
// would send them; each refusal is shown to change nothing (the fault settings and accounts stay).
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { get as httpsGet } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../src/sandbox/sandbox-options';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/start-sandbox';

interface Answer {
  status: number;
  body: string;
}

function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('sandbox control API access', () => {
  let sandbox: RunningSandbox;
  let port: string;
  const auth = (): Record<string, string> => ({ Authorization: `Bearer ${sandbox.controlToken}` });
  const faultsNow = async (): Promise<{ latencyMs: number; errorRate: number }> => {
    const answer = await raw(`${sandbox.controlUrl}/control/faults`, 'POST', { ...auth(), 'Content-Type': 'application/json' }, '{}');
    expect(answer.status).toBe(200);
    return JSON.parse(answer.body) as { latencyMs: number; errorRate: number };
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ ...DEFAULT_OPTIONS, products: 50, exitOnStdinClose: false }, () => undefined);
    port = new URL(sandbox.controlUrl).port;
  });

  afterAll(async () => {
    await sandbox.stop();
  });

  it('has a token of its own: 32 random bytes, not the API key', () => {
    expect(sandbox.controlToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sandbox.controlToken).not.toContain(sandbox.apiKey);
  });

  it('answers a loopback Host with the token', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await raw(`${sandbox.controlUrl}/control/ledger/${sandbox.userId}`, 'GET', { ...auth(), Host: host });
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ balance: expect.any(String) as unknown });
    }
  });

  it('refuses a foreign Host (DNS rebinding) even with the token, before doing anything', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`]) {
      const read = await raw(`${sandbox.controlUrl}/control/ledger/${sandbox.userId}`, 'GET', { ...auth(), Host: host });
      expect(read.status, host).toBe(421);
      expect(read.body, host).not.toContain('balance');
      const write = await raw(`${sandbox.controlUrl}/control/faults`, 'POST', { ...auth(), Host: host, 'Content-Type': 'application/json' }, JSON.stringify({ latencyMs: 9000 }));
      expect(write.status, host).toBe(421);
    }
    expect((await faultsNow()).latencyMs).toBe(0);
  });

  it('refuses a missing or wrong token', async () => {
    const url = `${sandbox.controlUrl}/control/ledger/${sandbox.userId}`;
    const missing = await raw(url, 'GET', {});
    expect(missing.status).toBe(401);
    expect(missing.body).toContain('token');
    expect(missing.body).not.toContain(sandbox.controlToken);
    for (const authorization of [`Bearer ${sandbox.controlToken}x`, `Bearer ${sandbox.controlToken.slice(1)}`, sandbox.controlToken, `Basic ${sandbox.controlToken}`, `Bearer ${sandbox.apiKey}`]) {
      expect((await raw(url, 'GET', { Authorization: authorization })).status, authorization.slice(0, 10)).toBe(401);
    }
    const accounts = await raw(`${sandbox.controlUrl}/control/accounts`, 'POST', { 'Content-Type': 'application/json' }, JSON.stringify({ balance: '99999' }));
    expect(accounts.status).toBe(401);
    expect(accounts.body).not.toContain('apiKey');
  });

  it('refuses a cross-origin text/plain POST (what a web page can send without asking) and a form POST, and changes nothing', async () => {
    const page = { Origin: 'http://evil.example', Host: `127.0.0.1:${port}` };
    const textPlain = await raw(`${sandbox.controlUrl}/control/faults`, 'POST', { ...page, 'Content-Type': 'text/plain;charset=UTF-8' }, JSON.stringify({ errorRate: 1 }));
    expect(textPlain.status).toBe(401);
    // Even holding the token (it cannot), a non-JSON POST is refused before its body is read.
    for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await raw(`${sandbox.controlUrl}/control/faults`, 'POST', { ...page, ...auth(), 'Content-Type': type }, JSON.stringify({ errorRate: 1 }));
      expect(answer.status, type).toBe(415);
    }
    const untyped = await raw(`${sandbox.controlUrl}/control/accounts/${sandbox.userId}/rotate-key`, 'POST', auth());
    expect(untyped.status).toBe(415);
    expect((await faultsNow()).errorRate).toBe(0);
    // The key was not rotated: the interface still accepts the original one.
    const status = await new Promise<number>((resolve, reject) => {
      const headers = { 'X-Service-User-Id': sandbox.userId, 'X-Service-Key': sandbox.apiKey };
      httpsGet(`${sandbox.baseUrl}/account`, { headers, ca: readFileSync(sandbox.caCertFile, 'utf8'), agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(200);
  });
});
