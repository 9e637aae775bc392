// 300 idle connections must not lock the webhook receiver out: with its production
// timeouts, a valid event posted while 300 silent sockets are open still gets its OK within the 3 s
// of interface v1 §6.4.3, and every silent socket is dropped by the receiver itself (header timeout).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookReceiver, type WebhookReceiver } from '../../../src/core/webhooks/webhook-receiver';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { post } from './webhook-kit';

const IDLE = 300;
let temp: TempDatabase;
let receiver: WebhookReceiver;
let port: number;
const idle: Socket[] = [];

function productChanged(eventId: string): Record<string, unknown> {
  return {
    eventId,
    eventType: 'product.changed',
    occurredAt: 1_790_000_000,
    productRef: 1001,
    revision: 1_790_000_000,
    changedProperties: ['price'],
    productSnapshot: {
      productRef: 1001,
      catalogRef: 11,
      availability: 'available',
      revision: 1_790_000_000,
      variants: [{ variantRef: 0, title: '月卡', price: 18.5, availability: 'available', inventoryType: 'unlimited', remainingUnits: null, purchaseSchemaRevision: 1 }],
    },
  };
}

/** Opens a TCP connection that never sends a byte; resolves once it is established. */
function openSilent(): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  temp = createMigratedDatabase();
  const cipher = await CardCipher.open(new MemorySecretStore());
  const logger = new RedactingLogger({ sink: () => undefined, level: 'error' });
  // Production timeouts: nothing shortened for the test.
  receiver = createWebhookReceiver({ db: temp.db, cipher, logger, clock: createScaledClock(1) });
  ({ port } = await receiver.start());
});

afterAll(async () => {
  for (const socket of idle) socket.destroy();
  await receiver?.stop();
  temp?.dispose();
});

describe('webhook receiver under 300 idle connections', () => {
  it('answers a valid event OK within 3 s, and drops every silent socket by itself', async () => {
    const opened = await Promise.all(Array.from({ length: IDLE }, () => openSilent()));
    idle.push(...opened.map((o) => o.socket));

    const first = await post(`http://127.0.0.1:${port}${receiver.path()}`, productChanged(`evt_flood_${process.pid}_1`));
    expect({ status: first.status, text: first.text }).toEqual({ status: 200, text: 'OK' });
    expect(first.ms).toBeLessThan(3000);

    // The receiver closes the silent ones itself (header timeout, or evicted for newer connections).
    await Promise.all(opened.map((o) => o.closed));
    expect(opened.every((o) => o.socket.destroyed)).toBe(true);

    const second = await post(`http://127.0.0.1:${port}${receiver.path()}`, productChanged(`evt_flood_${process.pid}_2`));
    expect({ status: second.status, text: second.text }).toEqual({ status: 200, text: 'OK' });
    expect(receiver.stats().received).toBe(2);
  });
});
