// The app service's connection, catalog, settings and health channels against a real sandbox over
// HTTPS with SQLite on disk: every channel answers a valid IpcResult, invalid input is refused before
// core, a wrong key is the merchant's 401001, the key is write-only (no answer, event or log line
// carries it), the sync runs in the background with progress, watching is kept, and the demo
// merchant connects in one call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type ChannelName } from '../../../src/shared/ipc/contract';
import { must } from '../../support/orders-harness';
import { createAppKit, expectContractShapes, expectNoSecretLeft, expectRefused, startMerchant, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE });
  account = await merchant.newAccount('100000');
  kit = await createAppKit(SCALE);
  kit.secrets.push(account.apiKey);
  await kit.app.start();
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const connectInput = (apiKey: string) => ({ baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey, caCertPem: merchant.caCertPem });
const WRONG_KEY = `AK_${'0'.repeat(32)}`;

describe('app service: connection, catalog, settings', () => {
  it('refuses invalid input before core, for every channel and unknown channels', async () => {
    const before = kit.requests.length;
    expectRefused(await kit.call('no.such.channel', undefined), 'INVALID_INPUT');
    expectRefused(await kit.call('connection.status', { extra: true }), 'INVALID_INPUT');
    const tooLong = expectRefused(await kit.call('connection.connect', { ...connectInput('x'.repeat(200)) }), 'INVALID_INPUT');
    expect(tooLong.fields?.some((f) => f.path === 'apiKey')).toBe(true);
    expectRefused(await kit.call('orders.place', { productRef: -1, variantRef: 0, units: 1 }), 'INVALID_INPUT');
    expectRefused(await kit.call('orders.get', { clientOrderRef: '../etc/passwd' }), 'INVALID_INPUT');
    expectRefused(await kit.call('orders.submitVerificationCode', { clientOrderRef: 'o_1', code: 'abc' }), 'INVALID_INPUT');
    expectRefused(await kit.call('vault.copy', { clientOrderRef: 'o_1', seq: 0, field: 'everything' }), 'INVALID_INPUT');
    expectRefused(await kit.call('settings.set', { theme: 'neon' }), 'INVALID_INPUT');
    expectRefused(await kit.call('catalog.search', { limit: 100_000 }), 'INVALID_INPUT');
    // Every channel with a garbage input: refused by the contract, nothing reached the merchant.
    for (const channel of Object.keys(CHANNELS) as ChannelName[]) {
      const result = await kit.call(channel, { clientOrderRef: 42, productRef: 'x', apiKey: 7, theme: 1, units: 'x', limit: 'x', intentStatus: 5 });
      expectRefused(result, 'INVALID_INPUT');
    }
    expect(kit.requests.length).toBe(before);
  });

  it('answers NOT_CONNECTED before a connection, and the cache reads still work offline', async () => {
    const status = await kit.ok('connection.status');
    expect(status).toMatchObject({ connected: false, keyStored: false, baseUrl: null, demo: false, secretStore: 'memory' });
    expectRefused(await kit.call('account.get'), 'NOT_CONNECTED');
    expectRefused(await kit.call('catalog.sync'), 'NOT_CONNECTED');
    expectRefused(await kit.call('orders.template', { productRef: 1, variantRef: 0 }), 'NOT_CONNECTED');
    expectRefused(await kit.call('connection.replaceKey', { apiKey: account.apiKey }), 'NOT_CONNECTED');
    expect(await kit.ok('catalog.categories')).toEqual([]);
    expect(await kit.ok('catalog.search', { text: '会员' })).toMatchObject({ total: 0, items: [] });
    expectRefused(await kit.call('catalog.product', { productRef: 1 }), 'NOT_FOUND');
    expect(await kit.ok('orders.list', {})).toEqual([]);
    expectRefused(await kit.call('orders.get', { clientOrderRef: 'o_missing' }), 'NOT_FOUND');
    expectRefused(await kit.call('vault.cards', { clientOrderRef: 'o_missing' }), 'NOT_FOUND');
    expect(await kit.ok('events.health')).toMatchObject({ receiverUp: false, webhooksLive: false, tunnelKind: null });
  });

  it('tests the key at once: a wrong one is the merchant refusing with 401001, a malformed one never leaves', async () => {
    const wrong = expectRefused(await kit.call('connection.connect', connectInput(WRONG_KEY)), 'MERCHANT_REFUSED');
    expect(wrong.merchantCode).toBe(401001);
    expect(typeof wrong.requestId).toBe('string');
    expect((await kit.ok('connection.status')).keyStored).toBe(false);

    const before = kit.requests.length;
    expectRefused(await kit.call('connection.connect', connectInput('AK_not-a-key')), 'INVALID_INPUT');
    expectRefused(await kit.call('connection.connect', { ...connectInput(account.apiKey), baseUrl: 'http://127.0.0.1/openapi/v1' }), 'INVALID_INPUT');
    expect(kit.requests.length).toBe(before);

    const unreachable = expectRefused(await kit.call('connection.connect', { ...connectInput(account.apiKey), baseUrl: 'https://127.0.0.1:1/openapi/v1' }), 'MERCHANT_UNREACHABLE');
    expect(unreachable.message).not.toContain(account.apiKey);
  });

  it('connects, shows the account, and pushes connection.changed and account.changed', async () => {
    // Typed as a buyer types it (issue 26): host and port only, https:// and /openapi/v1 assumed.
    const bareHost = new URL(merchant.sandbox.baseUrl).host;
    const view = await kit.ok('connection.connect', { ...connectInput(account.apiKey), baseUrl: bareHost });
    expect(view).toMatchObject({ userId: account.userId, accessState: 'active', balanceFen: 10_000_000 });
    expect(await kit.ok('connection.status')).toMatchObject({ connected: true, keyStored: true, baseUrl: merchant.sandbox.baseUrl, userId: account.userId, demo: false });
    expect(kit.events.some((e) => e.event === 'connection.changed' && (e.payload as { connected: boolean }).connected)).toBe(true);
    expect(kit.events.some((e) => e.event === 'account.changed')).toBe(true);
    expect(await kit.ok('account.get')).toMatchObject({ userId: account.userId });
  });

  it('syncs the catalog in the background, one at a time, with progress, then reads it offline', async () => {
    const first = await kit.ok('catalog.sync');
    expect(first.running).toBe(true);
    const second = await kit.ok('catalog.sync');
    expect(second.running).toBe(true);
    const done = await waitFor('the sync to finish', async () => {
      const status = await kit.ok('catalog.syncStatus');
      return status.running ? null : status;
    }, 60_000);
    expect(done.failure).toBeNull();
    expect(done.lastSyncedAt).not.toBeNull();
    expect(done.products).toBeGreaterThan(0);
    const phases = kit.events.filter((e) => e.event === 'catalog.syncProgress').map((e) => (e.payload as { phase: string }).phase);
    expect(phases).toEqual(expect.arrayContaining(['list', 'details', 'done']));
    expect(kit.events.some((e) => e.event === 'catalog.changed')).toBe(true);

    const categories = await kit.ok('catalog.categories');
    expect(categories.length).toBeGreaterThan(0);
    const all = await kit.ok('catalog.search', { sort: 'priceAsc', limit: 200 });
    expect(all.total).toBe(done.products);
    const hit = all.items.find((i) => i.variantCount > 0);
    expect(hit).toBeDefined();
    const productRef = hit?.productRef ?? 0;
    const product = await kit.ok('catalog.product', { productRef });
    expect(product).toMatchObject({ productRef, watched: false });
    expect(product.variants.length).toBeGreaterThan(0);
    const variantRef = product.variants[0]?.variantRef ?? 0;
    const history = await kit.ok('catalog.priceHistory', { productRef, variantRef });
    expect(history.length).toBeGreaterThan(0);
    expect(history[0]?.priceFen).toBe(product.variants[0]?.priceFen);
    const template = await kit.ok('orders.template', { productRef, variantRef });
    expect(template).toMatchObject({ productRef, productType: product.productType });

    const watched = await kit.ok('catalog.setWatched', { productRef, watched: true });
    expect(watched.watched).toBe(true);
    expect((await kit.ok('catalog.product', { productRef })).watched).toBe(true);
    expect((await kit.ok('catalog.setWatched', { productRef, watched: false })).watched).toBe(false);
    expectRefused(await kit.call('catalog.setWatched', { productRef: 99_999_999, watched: true }), 'NOT_FOUND');
  });

  it('tells the UI when a watched product changes its price (catalog.changed and a notification)', async () => {
    const hit = must((await kit.ok('catalog.search', { availability: 'available', limit: 1 })).items[0], 'a product');
    const product = await kit.ok('catalog.product', { productRef: hit.productRef });
    const variant = must(product.variants[0], 'a variant');
    await kit.ok('catalog.setWatched', { productRef: hit.productRef, watched: true });
    await merchant.control('POST', `/control/products/${hit.productRef}`, { variantRef: variant.variantRef, price: ((variant.priceFen + 123) / 100).toFixed(2) });
    await kit.ok('catalog.sync');
    await waitFor('the product-changed notice', () =>
      kit.events.some((e) => e.event === 'app.notification' && (e.payload as { kind: string; productRef?: number }).kind === 'productChanged' && (e.payload as { productRef?: number }).productRef === hit.productRef) || null,
    );
    expect(kit.events.some((e) => e.event === 'catalog.changed' && (e.payload as { productRefs: number[] }).productRefs.includes(hit.productRef))).toBe(true);
    const after = await kit.ok('catalog.product', { productRef: hit.productRef });
    expect(after.variants.find((v) => v.variantRef === variant.variantRef)?.priceFen).toBe(variant.priceFen + 123);
    expect((await kit.ok('catalog.priceHistory', { productRef: hit.productRef, variantRef: variant.variantRef })).map((p) => p.priceFen)).toEqual(
      expect.arrayContaining([variant.priceFen, variant.priceFen + 123]),
    );
    await waitFor('the sync to finish', async () => !(await kit.ok('catalog.syncStatus')).running || null);
    await kit.ok('catalog.setWatched', { productRef: hit.productRef, watched: false });
  });

  it('keeps settings in the settings table, a partial update changing only what it names', async () => {
    expect(await kit.ok('settings.get')).toEqual({ language: 'system', theme: 'system', webhookTunnel: 'off', webhookPort: 0, webhookNotice: 'none', lowBalanceFen: 100_00, closeToTray: true, startAtLogin: false });
    expect(await kit.ok('settings.set', { theme: 'dark' })).toMatchObject({ theme: 'dark', language: 'system' });
    expect(await kit.ok('settings.set', { language: 'zh-CN', webhookTunnel: 'loopback', webhookPort: 8787 })).toEqual({
      language: 'zh-CN',
      theme: 'dark',
      webhookTunnel: 'loopback',
      webhookPort: 8787,
      webhookNotice: 'none',
      lowBalanceFen: 100_00,
      closeToTray: true,
      startAtLogin: false,
    });
    expect(await kit.ok('settings.get')).toMatchObject({ theme: 'dark', language: 'zh-CN' });
    // Applied at once while connected (app-webhooks-settings.test.ts follows the receiver itself).
    expect(await kit.ok('events.health')).toMatchObject({ tunnelKind: 'loopback' });
    await kit.ok('settings.set', { webhookTunnel: 'off' });
    expect(await kit.ok('events.health')).toMatchObject({ receiverUp: false });
  });

  it('shows a suspended account as such, and maps an IP the merchant denies to MERCHANT_REFUSED with its code', async () => {
    await merchant.control('POST', `/control/accounts/${account.userId}`, { suspended: true });
    expect((await kit.ok('account.get')).accessState).toBe('suspended');
    await merchant.control('POST', `/control/accounts/${account.userId}`, { suspended: false, ipAllowList: ['203.0.113.7'] });
    const refused = expectRefused(await kit.call('account.get'), 'MERCHANT_REFUSED');
    expect(refused.merchantCode).toBeGreaterThanOrEqual(403000);
    expect(refused.merchantCode).toBeLessThan(404000);
    expect(typeof refused.requestId).toBe('string');
    await merchant.control('POST', `/control/accounts/${account.userId}`, { ipAllowList: null });
    expect((await kit.ok('account.get')).accessState).toBe('active');
  });

  it('replaces the key (tested first), clears it, and connects to the demo merchant in one call', async () => {
    const wrong = expectRefused(await kit.call('connection.replaceKey', { apiKey: WRONG_KEY }), 'MERCHANT_REFUSED');
    expect(wrong.merchantCode).toBe(401001);
    const rotated = await merchant.control<{ apiKey: string }>('POST', `/control/accounts/${account.userId}/rotate-key`);
    kit.secrets.push(rotated.apiKey);
    expect(await kit.ok('connection.replaceKey', { apiKey: rotated.apiKey })).toMatchObject({ userId: account.userId });
    expect((await kit.ok('account.get')).userId).toBe(account.userId);

    const cleared = await kit.ok('connection.clearKey');
    expect(cleared).toMatchObject({ connected: false, keyStored: false, baseUrl: merchant.sandbox.baseUrl });
    expectRefused(await kit.call('account.get'), 'NOT_CONNECTED');
    expect((await kit.ok('catalog.categories')).length).toBeGreaterThan(0);

    const demo = await kit.ok('connection.startDemo');
    expect(demo.accessState).toBe('active');
    expect(await kit.ok('connection.status')).toMatchObject({ connected: true, demo: true, baseUrl: kit.demoMerchant()?.sandbox.baseUrl });
    expect((await kit.ok('account.get')).userId).toBe(demo.userId);
  });

  it('answered only contract-shaped results and events, and no key anywhere', () => {
    expectContractShapes(kit);
    const pushed = new Set(kit.events.map((e) => e.event));
    for (const event of ['connection.changed', 'account.changed', 'catalog.syncProgress', 'catalog.changed', 'events.health', 'app.notification']) expect(pushed.has(event as never), event).toBe(true);
    // Every channel was called at least once.
    const called = new Set(kit.answers.map((a) => a.channel));
    for (const channel of Object.keys(CHANNELS)) expect(called.has(channel), channel).toBe(true);
    expectNoSecretLeft(kit, kit.secrets);
  });
});
