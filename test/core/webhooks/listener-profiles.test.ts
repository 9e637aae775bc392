// One webhook listener for two merchant profiles (contract §15.3): two receivers, each with its own
// database on disk, its own card cipher and token, mounted on one listener on 127.0.0.1. An event
// posted to a profile's path is stored in that profile's inbox only; a path no mounted token matches
// (another profile's token once it is unmounted or rotated, a guess, a token with junk around it) is
// 404 whatever the method; each profile's duplicates, limits and stats are its own; the listener's
// slow-client limits hold for every profile; and one profile stopping leaves the other listening.
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';
import { newCallbackToken } from '../../../src/core/webhooks/callback-token';
import { createWebhookInbox, type WebhookInbox } from '../../../src/core/webhooks/webhook-inbox';
import { createWebhookListener, type WebhookListener } from '../../../src/core/webhooks/webhook-listener';
import { createWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from '../../../src/core/webhooks/webhook-receiver';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { post } from './webhook-kit';

interface Profile {
  readonly name: string;
  readonly temp: TempDatabase;
  readonly cipher: CardCipher;
  readonly inbox: WebhookInbox;
  readonly receiver: WebhookReceiver;
  readonly stored: string[];
}

const logLines: string[] = [];
const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
let listener: WebhookListener;
let a: Profile;
let b: Profile;
let port: number;
let seq = 0;
const eventId = (): string => `evt_listener_${process.pid}_${++seq}_${Date.now()}`;
const url = (path: string): string => `http://127.0.0.1:${port}${path}`;
const rows = (p: Profile): number => p.temp.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM webhook_inbox').get()?.n ?? 0;

/** An event of a type this app does not know: stored and acknowledged as is. */
function anyEvent(id = eventId()): Record<string, unknown> {
  return { eventId: id, eventType: 'order.teleported', occurredAt: 1_790_000_000, note: 'listener test' };
}

async function openProfile(name: string, options: Partial<WebhookReceiverOptions> = {}): Promise<Profile> {
  const temp = createMigratedDatabase();
  const cipher = await CardCipher.open(new MemorySecretStore());
  const stored: string[] = [];
  const receiver = createWebhookReceiver({ db: temp.db, cipher, logger, clock: createScaledClock(1), listener, onStored: (id) => stored.push(id), ...options });
  return { name, temp, cipher, inbox: createWebhookInbox(temp.db, cipher), receiver, stored };
}

beforeAll(async () => {
  listener = createWebhookListener({ logger, headersTimeoutMs: 1000, requestTimeoutMs: 1500 });
  // A's exact body deadline is shorter than the listener's server-wide net, as the defaults are equal.
  a = await openProfile('A', { requestTimeoutMs: 1200 });
  // B takes small bodies only: the body limit is each profile's own.
  b = await openProfile('B', { maxBodyBytes: 2048 });
  const startedA = await a.receiver.start();
  const startedB = await b.receiver.start();
  expect(startedB.port).toBe(startedA.port);
  port = startedA.port;
});

afterAll(async () => {
  await a?.receiver.stop();
  await b?.receiver.stop();
  await listener?.close();
  a?.temp.dispose();
  b?.temp.dispose();
});

describe('one webhook listener, two profiles', () => {
  it('listens once on 127.0.0.1 with both tokens mounted, each receiver on its own path', () => {
    expect(listener.stats()).toMatchObject({ listening: true, port, routes: 2 });
    expect(a.receiver.path()).not.toBe(b.receiver.path());
    expect(a.receiver.stats().listening).toBe(true);
    expect(b.receiver.stats().listening).toBe(true);
  });

  it("stores an event posted to A's path in A's inbox only, and B's in B's only", async () => {
    const [beforeA, beforeB] = [rows(a), rows(b)];
    const toA = anyEvent();
    expect(await post(url(a.receiver.path()), toA)).toMatchObject({ status: 200, text: 'OK' });
    expect(a.inbox.get(String(toA.eventId))?.eventType).toBe('order.teleported');
    expect(b.inbox.get(String(toA.eventId))).toBeNull();
    expect([rows(a), rows(b)]).toEqual([beforeA + 1, beforeB]);
    expect(a.stored).toContain(toA.eventId);
    expect(b.stored).not.toContain(toA.eventId);

    const toB = anyEvent();
    expect((await post(url(b.receiver.path()), toB)).status).toBe(200);
    expect(b.inbox.get(String(toB.eventId))).not.toBeNull();
    expect(a.inbox.get(String(toB.eventId))).toBeNull();
    expect([rows(a), rows(b)]).toEqual([beforeA + 1, beforeB + 1]);
  });

  it("seals a profile's cards with its own cipher, in its own database files only", async () => {
    const id = eventId();
    const password = `PW${Date.now()}LISTENERX`;
    const res = await post(url(a.receiver.path()), {
      eventId: id, eventType: 'order.credentials.ready', occurredAt: 1_790_000_000, clientOrderRef: 'ref-listener', platformOrderRef: '1',
      card_list: [{ card_no: `NO${Date.now()}`, card_password: password, expiresAt: null }],
    });
    expect(res.status).toBe(200);
    const sealed = a.inbox.sealedCards(id)[0];
    if (sealed === undefined) throw new Error('no sealed card in A');
    expect(a.cipher.unseal(sealed.cardPassword, { clientOrderRef: 'ref-listener', seq: 0, field: 'card_password' })).toBe(password);
    // B's cipher is another key: A's sealed card means nothing to it, and B's database never saw it.
    expect(() => b.cipher.unseal(sealed.cardPassword, { clientOrderRef: 'ref-listener', seq: 0, field: 'card_password' })).toThrow();
    expect(b.inbox.sealedCards(id)).toHaveLength(0);
    for (const p of [a, b]) {
      p.temp.db.pragma('wal_checkpoint(PASSIVE)');
      for (const file of readdirSync(p.temp.dir)) expect(readFileSync(join(p.temp.dir, file)).toString('latin1').includes(password), `${p.name} ${file}`).toBe(false);
    }
    expect(logLines.join('\n')).not.toContain(password);
  });

  it('404 for every method on a path no mounted token matches; counted by the listener, stored nowhere', async () => {
    const [beforeA, beforeB] = [rows(a), rows(b)];
    const notFoundBefore = listener.stats().notFound;
    const guess = `/hooks/${newCallbackToken()}`;
    const junk = [
      guess,
      '/hooks/',
      '/',
      `${a.receiver.path()}/x`,
      `${a.receiver.path()}${b.receiver.path().slice('/hooks/'.length)}`,
      `/hooks/${a.receiver.token().slice(0, 42)}`,
      `/HOOKS/${a.receiver.token()}`,
    ];
    for (const path of junk) expect((await post(url(path), anyEvent())).status, path).toBe(404);
    for (const method of ['GET', 'PUT', 'DELETE']) expect((await post(url(guess), undefined, { method, contentType: null })).status, method).toBe(404);
    expect(listener.stats().notFound).toBe(notFoundBefore + junk.length + 3);
    expect([rows(a), rows(b)]).toEqual([beforeA, beforeB]);
    // A shared listener's 404 belongs to no profile.
    expect(a.receiver.stats().rejected.notFound + b.receiver.stats().rejected.notFound).toBe(0);
    // The right path still says 405 for another method: that check is the receiver's, as before.
    const get = await post(url(a.receiver.path()), undefined, { method: 'GET', contentType: null });
    expect({ status: get.status, allow: get.headers.allow }).toEqual({ status: 405, allow: 'POST' });
    expect(a.receiver.stats().rejected.methodNotAllowed).toBe(1);
    expect(b.receiver.stats().rejected.methodNotAllowed).toBe(0);
  });

  it("a duplicate eventId is each profile's own: the same event is stored once in each", async () => {
    const body = anyEvent();
    const dupA = a.receiver.stats().duplicates;
    const dupB = b.receiver.stats().duplicates;
    expect((await post(url(a.receiver.path()), body)).status).toBe(200);
    expect((await post(url(b.receiver.path()), body)).status).toBe(200);
    expect(b.receiver.stats().duplicates).toBe(dupB);
    expect((await post(url(a.receiver.path()), body)).status).toBe(200);
    expect(a.receiver.stats().duplicates).toBe(dupA + 1);
    expect(b.receiver.stats().duplicates).toBe(dupB);
    expect(a.stored.filter((id) => id === body.eventId)).toHaveLength(1);
    expect(b.stored.filter((id) => id === body.eventId)).toHaveLength(1);
  });

  it("413 by each profile's own body limit, declared or streamed, and nothing stored", async () => {
    const [beforeA, beforeB] = [rows(a), rows(b)];
    const middling = { ...anyEvent(), padding: 'x'.repeat(4096) };
    expect((await post(url(b.receiver.path()), middling)).status).toBe(413);
    expect((await post(url(a.receiver.path()), middling)).status).toBe(200);
    const big = JSON.stringify({ ...anyEvent(), padding: 'x'.repeat(300 * 1024) });
    const declared = await post(url(a.receiver.path()), big).catch((error: unknown) => ({ status: -1, text: String(error) }));
    expect(declared.status).toBe(413);
    expect(await streamed(b.receiver.path(), 8)).toBe(413);
    expect([rows(a), rows(b)]).toEqual([beforeA + 1, beforeB]);
    expect(a.receiver.stats().rejected.tooLarge).toBe(1);
    expect(b.receiver.stats().rejected.tooLarge).toBe(2);
  });

  it("cuts off a client trickling its body to A while B's events are answered meanwhile", async () => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
    socket.write(`POST ${a.receiver.path()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(' ');
    }, 200);
    // And one that never finishes its headers, on no path at all yet.
    const silent = connect(port, '127.0.0.1');
    silent.on('error', () => undefined);
    silent.write('POST /hooks/');
    const silentClosed = new Promise<number>((resolve) => silent.on('close', () => resolve(Date.now() - started)));
    const meanwhile = await post(url(b.receiver.path()), anyEvent());
    expect(meanwhile.status).toBe(200);
    const cutAfter = await closed;
    clearInterval(trickle);
    expect(cutAfter).toBeLessThan(3000);
    expect(await silentClosed).toBeLessThan(3000);
    expect(answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect(a.receiver.stats().rejected.timeout).toBe(1);
    expect(b.receiver.stats().rejected.timeout).toBe(0);
  });

  it('a burst to both profiles at once: every event in its own profile only, each durable before its OK (latency printed)', async () => {
    const perProfile = 160;
    const [beforeA, beforeB] = [rows(a), rows(b)];
    const sent = { A: [] as string[], B: [] as string[] };
    const latencies: number[] = [];
    const started = performance.now();
    // Interleaved, 8 in flight: bodies of both profiles complete in the same event-loop turns, so each
    // profile's group commit must take only its own.
    for (let round = 0; round < perProfile / 4; round++) {
      const batch = [a, b, a, b, a, b, a, b].map(async (p) => {
        const body = anyEvent();
        sent[p === a ? 'A' : 'B'].push(String(body.eventId));
        const res = await post(url(p.receiver.path()), body);
        expect(res.status).toBe(200);
        latencies.push(res.ms);
      });
      await Promise.all(batch);
    }
    const elapsed = performance.now() - started;
    latencies.sort((x, y) => x - y);
    const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    console.log(`two profiles on one listener: ${latencies.length} events, 8 in flight, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, ${(latencies.length / (elapsed / 1000)).toFixed(0)} events/s`);
    expect([rows(a) - beforeA, rows(b) - beforeB]).toEqual([sent.A.length, sent.B.length]);
    expect(sent.A.every((id) => a.inbox.get(id) !== null && b.inbox.get(id) === null)).toBe(true);
    expect(sent.B.every((id) => b.inbox.get(id) !== null && a.inbox.get(id) === null)).toBe(true);
    expect(at(0.99)).toBeLessThan(3000);
  });

  it("rotating A's token makes A's old path 404 at once; B's path is untouched", async () => {
    const oldA = a.receiver.path();
    const pathB = b.receiver.path();
    const nextA = a.receiver.rotateToken();
    expect((await post(url(oldA), anyEvent())).status).toBe(404);
    expect((await post(url(nextA), anyEvent())).status).toBe(200);
    expect((await post(url(pathB), anyEvent())).status).toBe(200);
    expect(listener.stats().routes).toBe(2);
  });

  it('refuses to mount a token that is mounted already (two profiles can never share a path)', () => {
    expect(() => listener.mount(b.receiver.token(), () => undefined)).toThrow(/mounted already/);
    expect(() => listener.mount('not-a-token', () => undefined)).toThrow(RangeError);
  });
});

describe('the shared listener while profiles come and go', () => {
  it("one profile stopping unmounts only its path: the listener stays up on the same port for the other", async () => {
    const pathA = a.receiver.path();
    await a.receiver.stop();
    expect(a.receiver.stats().listening).toBe(false);
    expect(listener.stats()).toMatchObject({ listening: true, port, routes: 1 });
    expect((await post(url(pathA), anyEvent())).status).toBe(404);
    expect((await post(url(b.receiver.path()), anyEvent())).status).toBe(200);
    // listener.stop() leaves it running while a route is mounted.
    await listener.stop();
    expect(listener.port()).toBe(port);
    expect((await post(url(b.receiver.path()), anyEvent())).status).toBe(200);
    // A comes back on the same listener and port.
    const again = await a.receiver.start();
    expect(again).toEqual({ port, path: pathA });
    expect((await post(url(pathA), anyEvent())).status).toBe(200);
  });

  it('closes once the last profile stops, and listens again when one starts, also while the close is under way', async () => {
    await a.receiver.stop();
    await b.receiver.stop();
    expect(listener.stats()).toMatchObject({ listening: false, port: null, routes: 0 });
    await expect(post(url(a.receiver.path()), anyEvent())).rejects.toThrow(/ECONNREFUSED/);
    // B's stop closes the server; A starts while that close is under way and must end up listening.
    await b.receiver.start();
    const [, startedA] = await Promise.all([b.receiver.stop(), a.receiver.start()]);
    expect(listener.stats()).toMatchObject({ listening: true, port: startedA.port, routes: 1 });
    expect(a.receiver.stats().listening).toBe(true);
    port = startedA.port;
    expect((await post(url(a.receiver.path()), anyEvent())).status).toBe(200);
    expect((await post(url(b.receiver.path()), anyEvent())).status).toBe(404);
  });
});

/** A body streamed in 1 KiB chunks with no Content-Length (chunked); resolves with the answer's status. */
function streamed(path: string, chunks: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request(url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    for (let i = 0; i < chunks; i++) req.write('z'.repeat(1024));
    req.end();
  });
}
