// The header's truth within seconds, through the app's contract against the real sandbox over HTTPS
// (real time: the sandbox's latency fault is real milliseconds): while nobody watches, nothing is
// asked; once a window calls connection.watch, refused connections are seen within 5 s with no
// other request, the return is seen by a probe, and answers slower than the threshold make the
// state "degraded" (slow) within 5 s and "online" again once they are fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsBackWork } from '../../../src/core/connection/connection-state';
import { SLOW_ANSWER_MS } from '../../../src/core/connection/slow-answer';
import type { ConnectionStateView } from '../../../src/shared/ipc/views/connection';
import { createAppKit, sleep, startMerchant, waitFor, type AppKit, type Merchant } from './app-kit';

let merchant: Merchant;
let kit: AppKit;
let renewing: ReturnType<typeof setInterval> | null = null;

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: 1, products: 12 });
  const account = await merchant.newAccount('1000');
  kit = await createAppKit(1);
  await kit.app.start();
  await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
  await waitFor('the first sync to end', async () => !(await kit.ok('catalog.syncStatus')).running, 60_000);
  // The balance is read after a sync: let that answer come, so that nothing is being asked.
  await sleep(2_000);
}, 90_000);

afterAll(async () => {
  if (renewing !== null) clearInterval(renewing);
  await merchant?.control('POST', '/control/faults', { refuseConnections: false, latencyMs: 0 }).catch(() => undefined);
  await kit?.close();
  await merchant?.stop();
});

const faults = (body: Record<string, unknown>): Promise<unknown> => merchant.control('POST', '/control/faults', body);
const state = async (): Promise<ConnectionStateView> => kit.ok('connection.state');
const accountRequests = (): number => kit.requests.filter((r) => new URL(r.url).pathname.endsWith('/account')).length;

/** Real seconds until the state (read without asking the merchant) satisfies `done`. */
async function secondsUntil(what: string, done: (view: ConnectionStateView) => boolean, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  await waitFor(what, async () => done(await state()), timeoutMs);
  return (Date.now() - started) / 1000;
}

describe('the health watch through the app contract', () => {
  it('while no window watches, nothing is asked: refused connections go unseen', async () => {
    const before = accountRequests();
    await faults({ refuseConnections: true });
    await sleep(4_000);
    expect((await state()).state).toBe('online');
    expect(accountRequests()).toBe(before);
    await faults({ refuseConnections: false });
  });

  it('watched: refused connections are offline within 5 s with nothing else asked; online again by a probe once lifted', async () => {
    // The renderer renews its watch every few seconds while the window is visible.
    await kit.ok('connection.watch');
    renewing = setInterval(() => void kit.call('connection.watch'), 3_000);
    await sleep(2_500);
    expect((await state()).state).toBe('online');
    await faults({ refuseConnections: true });
    const toOffline = await secondsUntil('offline', (view) => view.state === 'offline');
    expect((await state()).transportReason).toBe('refused');
    expect(toOffline).toBeLessThanOrEqual(5);
    await sleep(3_000);
    await faults({ refuseConnections: false });
    const toOnline = await secondsUntil('online again', (view) => view.state === 'online');
    // The reach probe's wait is capped at 10 s while a window watches.
    expect(toOnline).toBeLessThanOrEqual(11);
    console.info(`health watch: offline after ${toOffline.toFixed(1)} s; online ${toOnline.toFixed(1)} s after the listener came back`);
  }, 40_000);

  it('watched: answers slower than the threshold are "degraded" (slow) within 5 s; online once they are fast', async () => {
    await sleep(2_500);
    expect((await state()).state).toBe('online');
    await faults({ latencyMs: SLOW_ANSWER_MS + 3_000 });
    const toSlow = await secondsUntil('slow', (view) => view.state === 'degraded' && view.slowMs !== null);
    expect(toSlow).toBeLessThanOrEqual(5);
    const slow = await state();
    expect(slow.slowMs).toBeGreaterThanOrEqual(SLOW_ANSWER_MS);
    // Slowness holds nothing back: the workers' pause (and so the order outbox) lets them run.
    const services = await kit.core.merchant();
    expect(holdsBackWork(services.connectionState.view())).toBe(false);
    expect(services.pauseFor(['orderCreate', 'orderRead']).pausedUntilMs()).toBeNull();
    // Still slow once the answers come: 6 s each.
    await waitFor('a slow answer measured', async () => ((await state()).slowMs ?? 0) >= SLOW_ANSWER_MS + 2_500, 15_000);
    expect((await state()).state).toBe('degraded');
    await faults({ latencyMs: 0 });
    const toOnline = await secondsUntil('online again', (view) => view.state === 'online', 20_000);
    expect((await state()).slowMs).toBeNull();
    console.info(`health watch: slow after ${toSlow.toFixed(1)} s; online ${toOnline.toFixed(1)} s after the delay ended`);
    const pushed = kit.events.filter((e) => e.event === 'connection.state').map((e) => (e.payload as ConnectionStateView).state);
    expect(pushed.slice(-2)).toEqual(['degraded', 'online']);
  }, 60_000);
});
