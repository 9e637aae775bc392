import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, createScaledClock } from '../../src/sandbox/clock';
import { prepareSandboxTls } from '../../src/sandbox/tls/certificate-authority';
import { createDeliveryLog } from '../../src/sandbox/webhooks/delivery-log';
import { createWebhookDispatcher, type WebhookDispatcher, type WebhookMessage } from '../../src/sandbox/webhooks/webhook-dispatcher';
import { isLoopbackHost } from '../../src/sandbox/domain/address-rules';
import { isAcknowledgement } from '../../src/sandbox/webhooks/webhook-send';
import { startWebhookReceiver, type HookReply, type ReceivedHook, type WebhookReceiver } from '../support/webhook-receiver';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  cleanups.push(() => r.close());
  return r;
}

function dispatcher(options: Parameters<typeof createWebhookDispatcher>[0]): WebhookDispatcher {
  const d = createWebhookDispatcher(options);
  cleanups.push(() => d.stop());
  return d;
}

async function waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let eventCounter = 0;
function message(url: string, extra: Partial<WebhookMessage> = {}): WebhookMessage {
  eventCounter += 1;
  return {
    eventId: `evt_test_${eventCounter}`,
    eventType: 'order.changed',
    url,
    body: { eventId: `evt_test_${eventCounter}`, eventType: 'order.changed', occurredAt: 1_790_000_000, note: '视频会员 ✓' },
    ...extra,
  };
}

/** Answers each event by its eventId, so that many cases share one receiver concurrently. */
function replyByEvent(r: WebhookReceiver, replies: Map<string, HookReply>): void {
  r.reply((hook: ReceivedHook) => replies.get(String(hook.json?.eventId)) ?? { status: 200, body: 'OK' });
}

const fast = (): ReturnType<typeof createScaledClock> => createScaledClock(100);

describe('acknowledgement rule', () => {
  it('accepts only status 200 with a body that is OK trimmed and without case', () => {
    for (const body of ['OK', 'ok', 'Ok', ' ok \n', '\tOK\r\n']) expect(isAcknowledgement(200, body)).toBe(true);
    for (const body of ['', 'OKAY', '{"ok":true}', '"OK"', 'O K']) expect(isAcknowledgement(200, body)).toBe(false);
    for (const status of [201, 204, 302, 500]) expect(isAcknowledgement(status, 'OK')).toBe(false);
  });

  it('recognises loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.5.6.7', '[::1]', '::1', 'localhost', 'LOCALHOST', '[::ffff:7f00:1]', '[0:0:0:0:0:0:0:1]']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['128.0.0.1', '10.0.0.1', 'example.com', 'localhost.example.com', '[::2]', '[2001:db8::1]']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe('webhook dispatcher', () => {
  it('succeeds with one send on OK in any case and surrounding whitespace', async () => {
    const r = await receiver();
    const d = dispatcher({ clock: fast() });
    const replies = new Map<string, HookReply>();
    replyByEvent(r, replies);
    const finalFailures: string[] = [];
    const messages = ['OK', ' ok \n', 'Ok'].map((body) => {
      const m = message(r.url, { onFinalFailure: () => finalFailures.push(m.eventId) });
      replies.set(m.eventId, { status: 200, body });
      return m;
    });
    for (const m of messages) d.enqueue(m);
    await waitFor(() => d.pending() === 0);
    await sleep(400); // 40 s of sandbox time: no retry may follow a success.

    expect(r.received).toHaveLength(3);
    expect(d.deliveries()).toHaveLength(3);
    for (const record of d.deliveries()) {
      expect(record).toMatchObject({ attempt: 1, status: 200, ok: true, error: null, url: r.url, eventType: 'order.changed' });
    }
    expect(finalFailures).toEqual([]);
  });

  it('POSTs the JSON body with its content type, a user agent and no credentials', async () => {
    const r = await receiver();
    const d = dispatcher({ clock: fast() });
    const m = message(r.url);
    d.enqueue(m);
    await waitFor(() => d.pending() === 0);

    const [hook] = r.received;
    expect(hook?.method).toBe('POST');
    expect(hook?.body).toBe(JSON.stringify(m.body));
    expect(hook?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(hook?.headers['user-agent']).toBe('MerchantSandbox-Webhook/1.0');
    expect(hook?.headers.authorization).toBeUndefined();
    expect(Object.keys(hook?.headers ?? {}).filter((h) => /key|sign|token|auth/i.test(h))).toEqual([]);
  });

  it('counts every other answer as a failure and gives up after exactly three sends', async () => {
    const r = await receiver();
    const d = dispatcher({ clock: fast() });
    const replies = new Map<string, HookReply>();
    replyByEvent(r, replies);
    const cases: { reply: HookReply; status: number; error: RegExp }[] = [
      { reply: { status: 200, body: '' }, status: 200, error: /empty/ },
      { reply: { status: 200, body: '{"ok":true}', headers: { 'content-type': 'application/json' } }, status: 200, error: /not OK/ },
      { reply: { status: 200, body: 'OKAY' }, status: 200, error: /not OK/ },
      { reply: { status: 201, body: 'OK' }, status: 201, error: /201/ },
      { reply: { status: 500, body: 'OK' }, status: 500, error: /500/ },
      { reply: { status: 200, body: 'x'.repeat(70 * 1024) }, status: 200, error: /larger/ },
    ];
    const finalFailures = new Map<string, number>();
    const messages = cases.map((c) => {
      const m = message(r.url, { onFinalFailure: () => finalFailures.set(m.eventId, (finalFailures.get(m.eventId) ?? 0) + 1) });
      replies.set(m.eventId, c.reply);
      return m;
    });
    for (const m of messages) d.enqueue(m);
    await waitFor(() => d.pending() === 0);
    await sleep(200);

    messages.forEach((m, i) => {
      const c = cases[i];
      const records = d.deliveries().filter((rec) => rec.eventId === m.eventId);
      expect(records.map((rec) => rec.attempt)).toEqual([1, 2, 3]);
      for (const rec of records) {
        expect(rec.ok).toBe(false);
        expect(rec.status).toBe(c?.status);
        expect(rec.error).toMatch(c?.error ?? /./);
      }
      const hooks = r.received.filter((h) => h.json?.eventId === m.eventId);
      expect(hooks).toHaveLength(3);
      expect(new Set(hooks.map((h) => h.body))).toEqual(new Set([JSON.stringify(m.body)]));
      expect(finalFailures.get(m.eventId)).toBe(1);
    });
  });

  it('does not follow redirects', async () => {
    const target = await receiver();
    const r = await receiver();
    r.reply(() => ({ status: 302, body: '', headers: { location: target.url } }));
    const d = dispatcher({ clock: fast() });
    let finalFailures = 0;
    d.enqueue(message(r.url, { onFinalFailure: () => (finalFailures += 1) }));
    await waitFor(() => d.pending() === 0);
    await sleep(100);

    expect(r.received).toHaveLength(3);
    expect(target.received).toHaveLength(0);
    expect(d.deliveries().map((rec) => [rec.status, rec.ok])).toEqual([
      [302, false],
      [302, false],
      [302, false],
    ]);
    expect(finalFailures).toBe(1);
  });

  it('fails a send that is not answered within the acknowledgement time, and starts an overdue retry when it ends', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 200, body: 'OK', delayMs: 1_000 }));
    // 200 ms of real time is 20 s of sandbox time: each send overruns the next one's due time.
    const d = dispatcher({ clock: fast(), ackTimeoutMs: 200 });
    let finalFailures = 0;
    d.enqueue(message(r.url, { onFinalFailure: () => (finalFailures += 1) }));
    await waitFor(() => d.pending() === 0);

    const records = d.deliveries();
    expect(records).toHaveLength(3);
    for (const rec of records) expect(rec).toMatchObject({ status: null, ok: false, error: 'no answer within 200 ms' });
    const [first, second, third] = records.map((rec) => rec.sentAtMs);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(19_000);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(19_000);
    expect(finalFailures).toBe(1);
  });

  it('fails on a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const d = dispatcher({ clock: fast() });
    let finalFailures = 0;
    d.enqueue(message(`http://127.0.0.1:${port}/hooks`, { onFinalFailure: () => (finalFailures += 1) }));
    await waitFor(() => d.pending() === 0);

    expect(d.deliveries()).toHaveLength(3);
    for (const rec of d.deliveries()) expect(rec).toMatchObject({ status: null, ok: false, error: expect.stringMatching(/ECONNREFUSED/) as unknown });
    expect(finalFailures).toBe(1);
  });

  it('fails on an invalid or unsupported address without throwing', async () => {
    const d = dispatcher({ clock: fast() });
    d.enqueue(message('not a url'));
    d.enqueue(message('ftp://127.0.0.1/hooks'));
    await waitFor(() => d.pending() === 0);
    const errors = d.deliveries().map((rec) => rec.error);
    expect(errors.filter((e) => e === 'invalid callback URL')).toHaveLength(3);
    expect(errors.filter((e) => e === 'unsupported callback URL scheme ftp:')).toHaveLength(3);
  });

  it('sends the retries 15 s and 30 s after the first send, with the same eventId, address and body', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 500, body: 'busy' }));
    // A gentler scale than fast(): a shared, loaded CI machine can be late by a few hundred real
    // milliseconds, which 100x would turn into more than the tolerance below. Exactness is the
    // manual clock's test.
    const d = dispatcher({ clock: createScaledClock(20) });
    const m = message(r.url);
    d.enqueue(m);
    await waitFor(() => d.pending() === 0);

    const records = d.deliveries();
    expect(records.map((rec) => [rec.eventId, rec.url, rec.attempt])).toEqual([
      [m.eventId, r.url, 1],
      [m.eventId, r.url, 2],
      [m.eventId, r.url, 3],
    ]);
    const [first, second, third] = records.map((rec) => rec.sentAtMs);
    // Never early; late by at most some real milliseconds, which the 20x clock magnifies.
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(15_000);
    expect((second ?? 0) - (first ?? 0)).toBeLessThan(25_000);
    expect((third ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(30_000);
    expect((third ?? 0) - (first ?? 0)).toBeLessThan(40_000);
    for (const rec of records) expect(rec.sentAt).toBe(Math.floor(rec.sentAtMs / 1000));
    expect(r.received.map((h) => h.body)).toEqual([JSON.stringify(m.body), JSON.stringify(m.body), JSON.stringify(m.body)]);
  });

  it('keeps the exact schedule on a manual clock', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 503, body: '' }));
    const clock = createManualClock();
    const d = dispatcher({ clock });
    d.enqueue(message(r.url));
    await waitFor(() => d.deliveries().length === 1);
    clock.advance(14_999);
    await sleep(100);
    expect(r.received).toHaveLength(1);
    clock.advance(1);
    await waitFor(() => d.deliveries().length === 2);
    clock.advance(14_999);
    await sleep(100);
    expect(r.received).toHaveLength(2);
    clock.advance(1);
    await waitFor(() => d.pending() === 0);
    expect(d.deliveries().map((rec) => rec.sentAtMs - 1_790_000_000_000)).toEqual([0, 15_000, 30_000]);
  });

  it('stops at the first success', async () => {
    const r = await receiver();
    r.reply(() => (r.received.length === 1 ? { status: 500, body: 'no' } : { status: 200, body: 'ok' }));
    const d = dispatcher({ clock: fast() });
    let finalFailures = 0;
    d.enqueue(message(r.url, { onFinalFailure: () => (finalFailures += 1) }));
    await waitFor(() => d.pending() === 0);
    await sleep(400); // past the 30 s mark in sandbox time

    expect(d.deliveries().map((rec) => [rec.attempt, rec.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(r.received).toHaveLength(2);
    expect(finalFailures).toBe(0);
  });

  it('runs many messages concurrently and independently', async () => {
    const r = await receiver();
    r.reply((hook) => (Number(String(hook.json?.eventId).split('_').pop()) % 2 === 0 ? { status: 200, body: 'OK' } : { status: 500, body: '' }));
    const d = dispatcher({ clock: fast() });
    const messages = Array.from({ length: 40 }, () => message(r.url));
    for (const m of messages) d.enqueue(m);
    await waitFor(() => d.pending() === 0);

    for (const m of messages) {
      const even = Number(m.eventId.split('_').pop()) % 2 === 0;
      expect(d.deliveries().filter((rec) => rec.eventId === m.eventId)).toHaveLength(even ? 1 : 3);
    }
    // Listed in the order the sends started.
    const times = d.deliveries().map((rec) => rec.sentAtMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('stop() cancels scheduled retries and ignores later messages', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 500, body: '' }));
    const clock = createManualClock();
    const d = createWebhookDispatcher({ clock });
    let finalFailures = 0;
    d.enqueue(message(r.url, { onFinalFailure: () => (finalFailures += 1) }));
    await waitFor(() => d.deliveries().length === 1);
    await d.stop();
    clock.advance(60_000);
    d.enqueue(message(r.url));
    await sleep(200);

    expect(r.received).toHaveLength(1);
    expect(d.deliveries()).toHaveLength(1);
    expect(d.pending()).toBe(0);
    expect(finalFailures).toBe(0);
  });

  it('stop() aborts sends in flight', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 200, body: 'OK', delayMs: 5_000 }));
    const d = createWebhookDispatcher({ clock: fast() });
    let finalFailures = 0;
    d.enqueue(message(r.url, { onFinalFailure: () => (finalFailures += 1) }));
    await r.waitFor((hooks) => hooks.length === 1);
    const started = Date.now();
    await d.stop();

    expect(Date.now() - started).toBeLessThan(1_000);
    expect(d.deliveries()).toEqual([expect.objectContaining({ ok: false, status: null, error: expect.stringMatching(/aborted/) as unknown })]);
    await sleep(200);
    expect(r.received).toHaveLength(1);
    expect(finalFailures).toBe(0);
  });

  it('accepts a self-signed certificate from a loopback https receiver', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const tls = await prepareSandboxTls({ dir, hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    const bodies: string[] = [];
    const server = createHttpsServer({ cert: tls.serverCertPem, key: tls.serverKeyPem }, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        bodies.push(body);
        res.end('OK');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;

    const d = dispatcher({ clock: fast() });
    const m = message(`https://127.0.0.1:${port}/hooks`);
    d.enqueue(m);
    await waitFor(() => d.pending() === 0);
    expect(d.deliveries()).toEqual([expect.objectContaining({ attempt: 1, ok: true, status: 200 })]);
    expect(bodies).toEqual([JSON.stringify(m.body)]);
  });
});

describe('delivery log', () => {
  it('lists finished sends in the order they started and keeps only the newest', () => {
    const log = createDeliveryLog(10);
    const base = { eventType: 'order.changed', url: 'http://127.0.0.1/', attempt: 1 as const, sentAt: 0 };
    const slow = log.start({ ...base, eventId: 'slow', sentAtMs: 1 });
    const quick = log.start({ ...base, eventId: 'quick', sentAtMs: 2 });
    quick({ status: 200, ok: true, error: null });
    expect(log.list().map((rec) => rec.eventId)).toEqual(['quick']);
    slow({ status: 500, ok: false, error: 'HTTP status 500' });
    expect(log.list().map((rec) => rec.eventId)).toEqual(['slow', 'quick']);

    for (let i = 0; i < 25; i++) log.start({ ...base, eventId: `e${i}`, sentAtMs: 10 + i })({ status: 200, ok: true, error: null });
    const ids = log.list().map((rec) => rec.eventId);
    expect(ids.length).toBeLessThanOrEqual(10);
    expect(ids.at(-1)).toBe('e24');
  });
});
