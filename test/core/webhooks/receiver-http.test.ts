// The receiver as a sender sees it, without a merchant: only POST on the secret path with a JSON body
// of a known shape is stored and answered OK; everything else gets its status and stores nothing.
// Duplicates are stored once, unknown types kept, card secrets sealed and never logged, slow clients
// cut off while others are served, and the acknowledgement latency of a burst is printed.
import { readFileSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookReceiver, type WebhookReceiver } from '../../../src/core/webhooks/webhook-receiver';
import { createWebhookInbox, type WebhookInbox } from '../../../src/core/webhooks/webhook-inbox';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { post } from './webhook-kit';

let temp: TempDatabase;
let cipher: CardCipher;
let receiver: WebhookReceiver;
let inbox: WebhookInbox;
let port: number;
const logLines: string[] = [];
const stored: string[] = [];

const url = (path = receiver.path()): string => `http://127.0.0.1:${port}${path}`;
const rows = (): number => temp.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM webhook_inbox').get()?.n ?? 0;
let seq = 0;
const eventId = (): string => `evt_test_${process.pid}_${++seq}_${Date.now()}`;

function orderChanged(id = eventId()): Record<string, unknown> {
  return {
    eventId: id,
    eventType: 'order.changed',
    occurredAt: 1_790_000_000,
    clientOrderRef: 'ref-1',
    platformOrderRef: '100001',
    revision: 2,
    changedProperties: ['state'],
    orderSnapshot: {
      clientOrderRef: 'ref-1', platformOrderRef: '100001', productRef: 1, variantRef: 0, productName: 'p', variantTitle: 'v', productType: 'card',
      units: 1, unitPrice: 1, totalAmount: 1, refundedAmount: 0, state: 'processing', allowedActions: [], revision: 2, failureReason: null,
      verificationHint: null, createdAt: 1, updatedAt: 2, completedAt: null, orderCallbackUrl: null, imageUrl: null, entryCount: 0, refunds: [], card_list: null,
    },
  };
}

beforeAll(async () => {
  temp = createMigratedDatabase();
  cipher = await CardCipher.open(new MemorySecretStore());
  const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
  receiver = createWebhookReceiver({ db: temp.db, cipher, logger, clock: createScaledClock(1), headersTimeoutMs: 1000, requestTimeoutMs: 1500, onStored: (id) => stored.push(id) });
  ({ port } = await receiver.start());
  inbox = createWebhookInbox(temp.db, cipher);
});

afterAll(async () => {
  await receiver?.stop();
  temp?.dispose();
});

describe('webhook receiver over HTTP', () => {
  it('listens on 127.0.0.1 only, on an unguessable /hooks/<token> path', () => {
    expect(receiver.path()).toMatch(/^\/hooks\/[A-Za-z0-9_-]{43}$/);
    expect(receiver.stats().listening).toBe(true);
  });

  it('stores a valid event, answers OK text/plain, and a duplicate eventId is acknowledged but stored once', async () => {
    const body = orderChanged();
    const before = rows();
    const first = await post(url(), body);
    expect(first.status).toBe(200);
    expect(first.text).toBe('OK');
    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    const again = await post(url(), body);
    expect({ status: again.status, text: again.text }).toEqual({ status: 200, text: 'OK' });
    expect(rows()).toBe(before + 1);
    expect(stored.filter((id) => id === body.eventId)).toHaveLength(1);
    expect(inbox.get(String(body.eventId))?.processedAt).toBeNull();
    expect(receiver.stats().duplicates).toBeGreaterThanOrEqual(1);
  });

  it('404 on a wrong path whatever the method, 405 for another method on the right path, 415 for a non-JSON type', async () => {
    const before = rows();
    expect((await post(url('/hooks/wrong'), orderChanged())).status).toBe(404);
    expect((await post(url('/'), orderChanged())).status).toBe(404);
    expect((await post(url(`/hooks/${'A'.repeat(43)}`), undefined, { method: 'GET', contentType: null })).status).toBe(404);
    const get = await post(url(), undefined, { method: 'GET', contentType: null });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await post(url(), orderChanged(), { method: 'PUT' })).status).toBe(405);
    expect((await post(url(), JSON.stringify(orderChanged()), { contentType: 'text/plain' })).status).toBe(415);
    expect((await post(url(), JSON.stringify(orderChanged()), { contentType: null })).status).toBe(415);
    expect((await post(url(), JSON.stringify(orderChanged()), { contentType: 'application/json; charset=utf-8' })).status).toBe(200);
    expect(rows()).toBe(before + 1);
  });

  it('400 for malformed JSON, wrong field types and missing fields; nothing stored', async () => {
    const before = rows();
    const bad: unknown[] = [
      '{"eventId": "x", ',
      '',
      'null',
      '[1,2]',
      { ...orderChanged(), revision: '2' },
      { ...orderChanged(), occurredAt: 'yesterday' },
      { ...orderChanged(), eventId: 42 },
      (() => { const b = orderChanged(); delete b.clientOrderRef; return b; })(),
      (() => { const b = orderChanged(); delete b.eventId; return b; })(),
      { eventId: eventId(), eventType: 'product.changed', occurredAt: 1, productRef: 1, revision: 1, changedProperties: [] },
      { eventId: eventId(), eventType: 'order.credentials.ready', occurredAt: 1, clientOrderRef: 'r', platformOrderRef: '1', card_list: [{ card_no: 1 }] },
      { eventId: eventId(), eventType: 'aftersale.message.created', occurredAt: 1, platformCaseRef: 'c', clientOrderRef: 'r', caseState: 'open' },
    ];
    for (const body of bad) {
      const res = await post(url(), body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect(rows()).toBe(before);
    expect(receiver.stats().rejected.badJson).toBeGreaterThanOrEqual(2);
    expect(receiver.stats().rejected.invalidEvent).toBeGreaterThanOrEqual(8);
  });

  it('an unknown event type is stored and acknowledged (not acted on here)', async () => {
    const id = eventId();
    const res = await post(url(), { eventId: id, eventType: 'order.teleported', occurredAt: 1_790_000_000, anything: [1, 2] });
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: 'OK' });
    expect(inbox.get(id)?.eventType).toBe('order.teleported');
    expect(receiver.stats().unknownTypes).toBeGreaterThanOrEqual(1);
  });

  it('413 for a body over the limit, declared or streamed, and nothing stored', async () => {
    const before = rows();
    const big = JSON.stringify({ ...orderChanged(), padding: 'x'.repeat(300 * 1024) });
    const declared = await post(url(), big).catch((error: unknown) => ({ status: -1, text: String(error) }));
    expect(declared.status).toBe(413);
    // Chunked (no Content-Length): the limit stops the reading.
    const streamed = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('close', () => resolve(Number(answer.split(' ')[1])));
      socket.on('error', () => resolve(Number(answer.split(' ')[1])));
      socket.write(`POST ${receiver.path()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
      const chunk = 'y'.repeat(64 * 1024);
      let sent = 0;
      const pump = (): void => {
        if (sent >= 6 || socket.destroyed) return;
        sent++;
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`, (error) => (error ? undefined : setImmediate(pump)));
      };
      pump();
      setTimeout(() => reject(new Error('no answer to a chunked oversize body')), 5000).unref();
    });
    expect(streamed).toBe(413);
    expect(rows()).toBe(before);
    expect(receiver.stats().rejected.tooLarge).toBe(2);
  });

  it('seals the cards of order.credentials.ready: no plain secret in the database files or the log', async () => {
    const id = eventId();
    const cardNo = `CARDNO${Date.now()}X`;
    const password = `PW${Date.now()}SECRETX`;
    const res = await post(url(), {
      eventId: id, eventType: 'order.credentials.ready', occurredAt: 1_790_000_000, clientOrderRef: 'ref-cards', platformOrderRef: '1',
      card_list: [{ card_no: cardNo, card_password: password, expiresAt: null }],
    });
    expect(res.status).toBe(200);
    const entry = inbox.get(id);
    expect(entry?.hasSealedCards).toBe(true);
    expect(entry?.body.card_list).toBeUndefined();
    const sealed = inbox.sealedCards(id);
    expect(sealed).toHaveLength(1);
    const first = sealed[0];
    if (first === undefined) throw new Error('no sealed card');
    expect(cipher.unseal(first.cardPassword, { clientOrderRef: 'ref-cards', seq: 0, field: 'card_password' })).toBe(password);
    temp.db.pragma('wal_checkpoint(PASSIVE)');
    for (const file of readdirSync(temp.dir)) {
      const bytes = readFileSync(join(temp.dir, file)).toString('latin1');
      expect(bytes.includes(password), file).toBe(false);
      expect(bytes.includes(cardNo), file).toBe(false);
    }
    expect(logLines.join('\n')).not.toContain(password);
    expect(logLines.join('\n')).not.toContain(receiver.token());
  });

  it('rotating the token makes the old path 404 at once', async () => {
    const old = receiver.path();
    const next = receiver.rotateToken();
    expect(next).not.toBe(old);
    expect(receiver.path()).toBe(next);
    expect((await post(url(old), orderChanged())).status).toBe(404);
    expect((await post(url(next), orderChanged())).status).toBe(200);
  });

  it('cuts off a client that sends headers and then trickles, and keeps answering others meanwhile', async () => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    const closed = new Promise<number>((resolve) => {
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => undefined);
    });
    socket.write(`POST ${receiver.path()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(' ');
    }, 200);
    // Headers-only slowloris as well.
    const slowHeaders = connect(port, '127.0.0.1');
    slowHeaders.on('error', () => undefined);
    slowHeaders.write(`POST ${receiver.path()} HTTP/1.1\r\nHost: x\r\n`);
    const headerTrickle = setInterval(() => {
      if (!slowHeaders.destroyed) slowHeaders.write('X-A: b\r\n');
    }, 200);
    const headersClosed = new Promise<number>((resolve) => slowHeaders.on('close', () => resolve(Date.now() - started)));
    const meanwhile = await post(url(), orderChanged());
    expect(meanwhile.status).toBe(200);
    const cutAfter = await closed;
    const headersCutAfter = await headersClosed;
    clearInterval(trickle);
    clearInterval(headerTrickle);
    expect(cutAfter).toBeLessThan(3000);
    expect(headersCutAfter).toBeLessThan(3000);
    expect(answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect((await post(url(), orderChanged())).status).toBe(200);
  });

  it('acknowledges a burst of a few hundred events durably (latency printed)', async () => {
    const total = 300;
    const latencies: number[] = [];
    const before = rows();
    const started = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        next++;
        const res = await post(url(), orderChanged());
        expect(res.status).toBe(200);
        latencies.push(res.ms);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const elapsed = performance.now() - started;
    latencies.sort((a, b) => a - b);
    const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    console.log(`webhook ack latency (${total} events, 8 concurrent, synchronous=FULL): p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${pct(100).toFixed(1)} ms, ${(total / (elapsed / 1000)).toFixed(0)} events/s`);
    expect(rows()).toBe(before + total);
    expect(pct(99)).toBeLessThan(3000);
  });
});
