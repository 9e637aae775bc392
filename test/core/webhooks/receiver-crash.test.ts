// A receiver process killed with SIGKILL right after answering OK: the event is in its inbox on
// restart (committed before the answer) and is processed exactly once; the sender's redelivery to the
// restarted receiver, same token and port, is acknowledged as a duplicate.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCallbackToken } from '../../../src/core/webhooks/callback-token';
import { getStoredOrder } from '../../../src/core/orders/order-store';
import { Catalog, controlProducts, goodCard, launch, must, type Harness } from '../../support/orders-harness';
import { waitUntil } from '../orders/orders-kit';
import { createEventsKit, orderChangedBody, placeCardOrder, post, type EventsKit } from './webhook-kit';

const SCALE = 10;
let h: Harness;
let kit: EventsKit;
const children: ChildProcess[] = [];

beforeAll(async () => {
  h = await launch([], SCALE);
  // The test's own receiver is not used here: the child process is the receiver.
  kit = await createEventsKit(h, { scale: SCALE, autoProcess: false });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await kit?.close();
  await h?.sandbox.stop();
});

async function startChild(file: string, token: string, port: number | null, killAfterOk: boolean): Promise<{ child: ChildProcess; port: number; path: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/core/webhooks/receiver-crash-child.ts', file, token, ...(port === null ? [] : [String(port)])], {
    cwd: process.cwd(),
    env: { ...process.env, PROCURE_TEST_KILL_AFTER_OK: killAfterOk ? '1' : '0' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const lines = createInterface({ input: must(child.stdout, 'stdout') });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code, signal) => reject(new Error(`child exited ${String(code)} ${String(signal)}: ${stderr}`)));
  });
  const info = JSON.parse(first) as { port: number; path: string };
  return { child, ...info };
}

describe('receiver killed with SIGKILL after OK', () => {
  it('finds the event in its inbox on restart and processes it once', async () => {
    const catalog = new Catalog(await controlProducts(h));
    const ref = await placeCardOrder(kit, catalog.claim(goodCard, 'a card that is supplied'));
    const { data: order } = await kit.o.client.getOrder(ref);
    const token = newCallbackToken();
    const file = kit.o.temp.file;

    const first = await startChild(file, token, null, true);
    const exited = once(first.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const body = orderChangedBody(`evt_crash_${Date.now()}`, order);
    const res = await post(`http://127.0.0.1:${first.port}${first.path}`, body);
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: 'OK' });
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');

    // Restarted on the same data, token and port: the event is there, unprocessed.
    const second = await startChild(file, token, first.port, false);
    expect(second.path).toBe(first.path);
    const entry = must(kit.inbox.get(String(body.eventId)), 'the event after the crash');
    expect({ processedAt: entry.processedAt, attempts: entry.attempts }).toEqual({ processedAt: null, attempts: 0 });
    const again = await post(`http://127.0.0.1:${second.port}${second.path}`, body);
    expect({ status: again.status, text: again.text }).toEqual({ status: 200, text: 'OK' });

    expect(await kit.processor.processPending()).toBe(1);
    expect(await kit.processor.processPending()).toBe(0);
    const done = must(kit.inbox.get(String(body.eventId)), 'processed event');
    expect(done.attempts).toBe(1);
    expect(done.outcome).toMatch(/^refreshed: order /);
    expect(kit.processed.filter((p) => p.eventId === body.eventId)).toHaveLength(1);
    await waitUntil(() => getStoredOrder(kit.o.temp.db, ref) !== null, 'order stored');
    second.child.stdin?.end();
    await once(second.child, 'exit');
  });
});
