// A background worker stops hammering while the merchant cannot be reached: against the real sandbox
// over HTTPS, once the sandbox refuses connections the worker's passes stop and only the reach probe
// (GET /account, with backoff) is sent; when the sandbox listens again the probe finds it, the state is
// online again and the worker resumes by itself, with nobody asking.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReachProbe } from '../../../src/core/connection/reach-probe';
import { createAccessGate } from '../../../src/core/merchant/access-gate';
import { createMerchantClient } from '../../../src/core/merchant/merchant-client';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createNotBeforeStore } from '../../../src/core/merchant/not-before-store';
import { createQuotaModel } from '../../../src/core/merchant/quota-model';
import { createRequestSender } from '../../../src/core/merchant/request-sender';
import { merchantWorkerPause } from '../../../src/core/merchant/worker-pause';
import { createScaledClock } from '../../../src/core/platform/clock';
import { createWorkerLoop, type WorkerLoop } from '../../../src/core/platform/worker-loop';
import { startMerchant, waitFor, type Merchant } from '../app/app-kit';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { FAST_RETRY, recordingPort, silentLogger } from '../merchant/client-kit';

const SCALE = 50;
let merchant: Merchant;
let temp: TempDatabase;
let loop: WorkerLoop | null = null;
let closePort: (() => void) | null = null;

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE, products: 10 });
  temp = createMigratedDatabase();
});
afterEach(async () => {
  await loop?.stop();
  closePort?.();
  await merchant.control('POST', '/control/faults', { refuseConnections: false });
});
afterAll(async () => {
  temp.dispose();
  await merchant.stop();
});

describe('background workers while the merchant is unreachable', () => {
  it('send only the probe while offline and resume by themselves when the merchant is back', async () => {
    const account = await merchant.newAccount('100');
    const clock = createScaledClock(SCALE);
    const https = createNodeHttpsPort({ ca: merchant.caCertPem });
    closePort = () => https.close();
    const { port, exchanges } = recordingPort(https, clock);
    const access = createAccessGate(clock);
    const send = createRequestSender({ baseUrl: merchant.sandbox.baseUrl, credentials: () => Promise.resolve(account), http: port, quota: createQuotaModel(clock), clock, logger: silentLogger, access, retry: FAST_RETRY });
    const client = createMerchantClient(send, access);
    const reach = createReachProbe(access.connection, clock);
    let passes = 0;
    loop = createWorkerLoop({
      clock,
      logger: silentLogger,
      name: 'test worker',
      pass: async () => {
        passes++;
        await client.listCategories();
      },
      // A pass every client-clock second: about fifty a real second when nothing holds it.
      waitMs: () => 1_000 / SCALE,
      pause: merchantWorkerPause({ notBefore: createNotBeforeStore(temp.db), access, clock, probe: () => client.getAccount(), reach }, ['catalog']),
    });
    loop.start();
    await waitFor('a few passes', () => passes >= 3);

    await merchant.control('POST', '/control/faults', { refuseConnections: true });
    await waitFor('offline', () => access.connection.view().state === 'offline');
    const isProbe = (url: string): boolean => new URL(url).pathname.endsWith('/account');
    // The pass that met the outage may still be retrying; from the first probe on, only probes go out.
    const firstProbe = await waitFor('the first probe', () => {
      const index = exchanges.findIndex((e, i) => i > 0 && isProbe(e.url) && e.failure !== null);
      return index >= 0 ? index + 1 : null;
    });
    const passesAtFirstProbe = passes;
    // Ten client-clock seconds offline: about ten passes' worth had nothing held the worker.
    const probeStart = exchanges[firstProbe - 1]?.sentAt ?? 0;
    await waitFor('ten seconds of probes', () => (exchanges.at(-1)?.sentAt ?? 0) - probeStart >= 10_000);
    const whileOffline = exchanges.slice(firstProbe - 1);
    expect(whileOffline.filter((e) => !isProbe(e.url))).toEqual([]);
    // The probe just sent may not have met the refusal yet on a busy machine: only finished ones are judged.
    expect(whileOffline.filter((e) => e.doneAt !== null && e.failure === null)).toEqual([]);
    expect(passes).toBe(passesAtFirstProbe);
    // Probes are spaced by the backoff (at least a client-clock second), not sent in a loop (a probe's
    // own attempts, retried by the sender, come in a quick burst).
    const gaps = whileOffline.slice(1).map((e, i) => e.sentAt - (whileOffline[i]?.sentAt ?? 0));
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(1_000);
    expect(whileOffline.length).toBeLessThan(5 * FAST_RETRY.maxAttempts);

    // Counted before the fault is lifted: the probe that finds the merchant back may come before the control call returns.
    const before = exchanges.length;
    await merchant.control('POST', '/control/faults', { refuseConnections: false });
    await waitFor('the worker resumed by itself', () => exchanges.slice(before).some((e) => !isProbe(e.url) && e.status === 200), 30_000);
    const after = exchanges.slice(before);
    const resumedAt = after.findIndex((e) => !isProbe(e.url));
    // A probe that succeeded came first: it is what said the merchant was back.
    expect(after.slice(0, resumedAt).some((e) => isProbe(e.url) && e.status === 200)).toBe(true);
    expect(access.connection.view().state).toBe('online');
  });
});
