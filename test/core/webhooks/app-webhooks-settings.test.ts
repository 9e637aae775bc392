// The app hosts (Electron main, the web host) build the app service over core without attaching an
// webhook service themselves: the webhook tunnel and port in the settings decide. With `loopback` the
// receiver and tunnel come up when the merchant services start, the callback URL is live and shown in
// events.health, and a delivery is counted; with `off` (the default) the app polls only.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppKit, expectRefused, startMerchant, waitFor, type AppKit, type Merchant } from '../app/app-kit';

const SCALE = 20;
let merchant: Merchant;
let kit: AppKit;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE });
  account = await merchant.newAccount('100000');
  kit = await createAppKit(SCALE);
  kit.secrets.push(account.apiKey);
}, 60_000);

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

describe('webhooks chosen in the settings', () => {
  it('off by default: polling only; loopback: the receiver and tunnel start with the merchant services', async () => {
    await kit.app.start();
    expect(await kit.ok('settings.get')).toMatchObject({ webhookTunnel: 'off' });
    expect(await kit.ok('events.health')).toMatchObject({ receiverUp: false, tunnelKind: null, callbackUrl: null });

    await kit.ok('settings.set', { webhookTunnel: 'loopback', webhookPort: 0 });
    await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    const health = await waitFor('the receiver to be up and verified', async () => {
      const h = await kit.ok('events.health');
      return h.receiverUp && h.webhooksLive ? h : null;
    });
    expect(health).toMatchObject({ tunnelKind: 'loopback', tunnelUp: true, received: 0 });
    const callbackUrl = health.callbackUrl ?? '';
    expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[A-Za-z0-9_-]{43}$/);

    const res = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventId: 'evt_app_settings_1', eventType: 'shipment.created', occurredAt: 1_790_000_000 }),
    });
    expect({ status: res.status, text: await res.text() }).toEqual({ status: 200, text: 'OK' });
    expect((await kit.ok('events.health')).received).toBe(1);

    await kit.app.stop();
    expect(await kit.ok('events.health')).toMatchObject({ receiverUp: false, callbackUrl: null });
  }, 60_000);

  it('a tunnel chosen while connected takes effect at once, and an unusable one is refused in words', async () => {
    await kit.app.start();
    await kit.ok('settings.set', { webhookTunnel: 'off' });
    await waitFor('the webhook side to stop', async () => ((await kit.ok('events.health')).receiverUp ? null : true));

    const refused = await kit.call('settings.set', { webhookTunnel: 'url:http://hooks.example.com' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', fields: [{ path: 'webhookTunnel' }] } });
    expect(await kit.ok('settings.get')).toMatchObject({ webhookTunnel: 'off' });

    await kit.ok('settings.set', { webhookTunnel: 'loopback', webhookPort: 0 });
    const first = await waitFor('the receiver to come up without a reconnect', async () => {
      const h = await kit.ok('events.health');
      return h.receiverUp && h.webhooksLive && h.callbackUrl !== null ? h.callbackUrl : null;
    });

    // Another port: the old receiver is closed, the new one answers.
    await kit.ok('settings.set', { webhookPort: 0, webhookTunnel: 'loopback' });
    const free = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    await kit.ok('settings.set', { webhookPort: free });
    const second = await waitFor('the receiver on the new port', async () => {
      const h = await kit.ok('events.health');
      return h.receiverUp && h.callbackUrl !== null && h.callbackUrl.includes(`:${free}/`) ? h.callbackUrl : null;
    });
    expect(second).not.toBe(first);
    await expect(fetch(first, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).rejects.toThrow();

    await kit.ok('settings.set', { webhookTunnel: 'off' });
    await waitFor('the webhook side to stop again', async () => ((await kit.ok('events.health')).receiverUp ? null : true));
    await expect(fetch(second, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).rejects.toThrow();
    await kit.app.stop();
  }, 60_000);

  it('the ngrok authtoken is stored write-only in the secret store and restarts a running ngrok tunnel', async () => {
    const token = '2xNgrokCanaryToken_' + 'q7Zr4Lp0';
    expect(await kit.ok('settings.ngrokAuthtoken')).toEqual({ stored: false });
    expectRefused(await kit.call('settings.saveNgrokAuthtoken', { authtoken: 'two words' }), 'INVALID_INPUT');
    expect(await kit.ok('settings.ngrokAuthtoken')).toEqual({ stored: false });

    expect(await kit.ok('settings.saveNgrokAuthtoken', { authtoken: ` ${token} ` })).toEqual({ stored: true });
    expect(await kit.ok('settings.ngrokAuthtoken')).toEqual({ stored: true });
    // Nothing of it crossed back or reached the log or the database.
    const crossed = JSON.stringify(kit.answers) + JSON.stringify(kit.events) + kit.logLines.join('\n');
    expect(crossed).not.toContain(token);
    const files = readdirSync(kit.dataDir).filter((file) => file.startsWith('procure-desk.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(join(kit.dataDir, file)).includes(Buffer.from(token)), file).toBe(false);
  });
});
