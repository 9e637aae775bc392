// A key replacement the merchant refuses changes nothing about the connection in use, so it must not
// cost the buyer their running catalog sync: before, connection.replaceKey stopped the sync first and
// a refused key left it stopped ("never synced" until the buyer pressed Sync). Against the sandbox
// over HTTPS, its answers slowed so the first sync is still running when the wrong key is tried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppKit, expectRefused, startMerchant, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE });
  kit = await createAppKit(SCALE);
  await kit.app.start();
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

describe('a refused key replacement during the first sync', () => {
  it('leaves the sync running, and it finishes without the buyer asking again', async () => {
    const account = await merchant.newAccount('1000');
    kit.secrets.push(account.apiKey);
    // Slow answers: the first sync (60 products, their details and templates) outlasts the attempt.
    await merchant.control('POST', '/control/faults', { latencyMs: 150 });
    await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    expect((await kit.ok('catalog.syncStatus')).running).toBe(true);

    const refused = expectRefused(await kit.call('connection.replaceKey', { apiKey: `AK_${'0'.repeat(32)}` }), 'MERCHANT_REFUSED');
    expect(refused.merchantCode).toBe(401001);

    expect((await kit.ok('catalog.syncStatus')).running).toBe(true);
    await merchant.control('POST', '/control/faults', { latencyMs: 0 });
    const done = await waitFor(
      'the first sync to finish by itself',
      async () => {
        const status = await kit.ok('catalog.syncStatus');
        return status.lastSyncedAt !== null ? status : null;
      },
      60_000,
    );
    expect(done.failure).toBeNull();
    expect(done.products).toBe(60);
  }, 90_000);
});
