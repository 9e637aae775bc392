import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS, type ChannelName } from '../../src/shared/ipc/contract';
import type { IpcResult } from '../../src/shared/ipc/ipc-result';
import { APP_URL, fakeFrame, fakeIpcMain, fakeWebContents, type FakeWebContents } from './fake-electron-ipc';

// No Electron here: main's IPC binding gets a fake `electron` whose ipcMain records handlers.
const electron = vi.hoisted(() => ({ ipcMain: { handle: (): void => undefined, removeHandler: (): void => undefined } }));
vi.mock('electron', () => electron);

import { ipcMain } from 'electron';
import { bindIpcHandlers } from '../../src/main/ipc/bind-ipc-handlers';
import { ipcChannelName } from '../../src/shared/ipc/ipc-names';
import { createSenderCheck } from '../../src/main/ipc/sender-check';
import { createAppUrlMatcher } from '../../src/main/security';
import { createDeskService } from '../../src/core/app/desk-service';
import { openDesk, type Desk } from '../../src/core/desk/desk';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';

const card = { clientOrderRef: 'PD_order_1', seq: 0 };

/** A valid input for every channel (the Record type makes a missing channel a type error). */
const VALID: Record<ChannelName, unknown> = {
  'connection.status': undefined,
  'connection.state': undefined,
  'connection.watch': undefined,
  'connection.connect': { baseUrl: 'https://merchant.example.com/openapi/v1', userId: '170001', apiKey: 'AK_test', caCertPem: null },
  'connection.startDemo': undefined,
  'connection.replaceKey': { apiKey: 'AK_new' },
  'connection.setCaCert': { caCertPem: null },
  'connection.clearKey': undefined,
  'account.get': undefined,
  'catalog.categories': undefined,
  'catalog.search': { text: '视频', limit: 50 },
  'catalog.product': { productRef: 7 },
  'catalog.openProduct': { productRef: 7 },
  'catalog.priceHistory': { productRef: 7, variantRef: 0 },
  'catalog.sync': undefined,
  'catalog.syncStatus': undefined,
  'catalog.setWatched': { productRef: 7, watched: true },
  'orders.template': { productRef: 7, variantRef: 1 },
  'orders.place': { productRef: 7, variantRef: 1, units: 2, purchaseEntries: [{ account: '13800000000' }], unitPriceFen: 1850 },
  'orders.list': { limit: 20 },
  'orders.get': { clientOrderRef: 'PD_order_1' },
  'orders.submitVerificationCode': { clientOrderRef: 'PD_order_1', code: '123456' },
  'orders.cancel': { clientOrderRef: 'PD_order_1', reason: 'not needed' },
  'orders.requestRefund': { clientOrderRef: 'PD_order_1', reason: 'wrong product' },
  'orders.confirm': { clientOrderRef: 'PD_order_1', units: 1, purchaseEntries: [{ account: 'a' }], unitPriceFen: 1850 },
  'orders.withdraw': { clientOrderRef: 'PD_order_1' },
  'orders.retryFailing': { clientOrderRef: 'PD_order_1' },
  'orders.refresh': { clientOrderRef: 'PD_order_1' },
  'orders.inFlight': undefined,
  'batch.preview': { file: { fileName: 'a.csv', dataBase64: 'YSxi' }, productRef: 7, variantRef: 0, mapping: null },
  'batch.place': { file: { fileName: 'a.csv', dataBase64: 'YSxi' }, productRef: 7, variantRef: 0, mapping: { account: 'a' }, unitPriceFen: 1850, confirmedTotalFen: 1850, confirmedRows: 1, draftRef: 'bd_Zk3q9XbT0aPwL1mN8sYc' },
  'batch.status': { batchId: 'b_1' },
  'batch.parsePaste': { text: 'a,b', fieldCount: 2 },
  'batch.retryFailed': { batchId: 'b_1', file: { fileName: 'a.csv', dataBase64: 'YSxi' } },
  'batch.confirmPrice': { batchId: 'b_1', unitPriceFen: 1900 },
  'batch.exportResults': { batchId: 'b_1', file: { fileName: 'a.csv', dataBase64: 'YSxi' }, format: 'xlsx' },
  'vault.cards': { clientOrderRef: 'PD_order_1' },
  'vault.reveal': card,
  'vault.copy': { ...card, field: 'cardNo' },
  'vault.list': { offset: 0, limit: 100, selection: { kind: 'notExported' } },
  'vault.exportPreview': { selection: { kind: 'order', clientOrderRef: 'PD_order_1' } },
  'vault.export': { selection: { kind: 'cards', cards: [card] }, format: 'xlsx', password: 'correct horse battery', passwordConfirm: 'correct horse battery' },
  'vault.mark': { cards: [card], flag: 'used', value: true },
  'vault.keyStatus': undefined,
  'vault.startNewKey': undefined,
  'audit.list': { limit: 50 },
  'aftersales.list': { state: 'active' },
  'aftersales.get': { platformCaseRef: 'AS_1' },
  'aftersales.refresh': { platformCaseRef: 'AS_1' },
  'aftersales.open': { clientOrderRef: 'PD_order_1', category: 'cardInvalid', description: '卡密无效', images: [] },
  'aftersales.send': { platformCaseRef: 'AS_1', text: '请尽快处理', images: ['https://img.example.com/a.png'] },
  'aftersales.markRead': { platformCaseRef: 'AS_1' },
  'aftersales.unread': undefined,
  'books.spend': { from: '2026-11-01', to: '2026-11-30', timeZone: 'Asia/Shanghai' },
  'books.exportSpend': { query: { from: '2026-11-01', to: '2026-11-30', timeZone: 'Asia/Shanghai' }, chart: 'days', format: 'csv' },
  'settings.get': undefined,
  'settings.set': { language: 'zh-CN' },
  'settings.desktop': undefined,
  'settings.ngrokAuthtoken': undefined,
  'settings.saveNgrokAuthtoken': { authtoken: '2abcNGROKtoken' },
  'events.health': undefined,
  'secrets.usePassphraseFile': { passphrase: 'Lantern-river 47 orchard' },
  'books.reconcile': { fromDay: '2026-11-25', toDay: '2026-11-25' },
  'books.reconcileLatest': undefined,
  'books.recompare': undefined,
  'books.refreshOrder': { clientOrderRef: 'PD_order_1' },
  'books.recordForeign': { clientOrderRef: 'PD_order_1' },
  'books.exportReconcile': { format: 'csv', language: 'en' },
  'profiles.list': undefined,
  'profiles.add': { name: 'Second merchant' },
  'profiles.rename': { profileId: 'p1', name: 'Cards' },
  'profiles.switch': { profileId: 'p1' },
  'profiles.work': { profileId: 'p1' },
  'profiles.remove': { profileId: 'p2', confirmName: 'Second merchant' },
  'catalog.compare': { text: '视频' },
  'links.list': undefined,
  'links.link': { a: { profileId: 'p1', productRef: 7, variantRef: 0 }, b: { profileId: 'p2', productRef: 9, variantRef: 1 } },
  'links.unlink': { key: { profileId: 'p1', productRef: 7, variantRef: 0 } },
  'links.forVariant': { key: { profileId: 'p1', productRef: 7, variantRef: 0 } },
  'links.setRule': { linkId: 1, rule: { maxUnitPriceFen: 1000, preference: ['p2'] } },
  'orders.offers': { key: { profileId: 'p1', productRef: 7, variantRef: 0 }, units: 1 },
};

/** An input each channel's schema refuses. */
const INVALID: Record<ChannelName, unknown> = {
  'connection.status': { sneaky: true },
  'connection.state': { sneaky: true },
  'connection.watch': { sneaky: true },
  'connection.connect': { baseUrl: 'https://m.example.com', userId: '', apiKey: 'AK', caCertPem: null },
  'connection.startDemo': 'please',
  'connection.replaceKey': { apiKey: 42 },
  'connection.setCaCert': { caCertPem: 'x'.repeat(70_000) },
  'connection.clearKey': [],
  'account.get': 1,
  'catalog.categories': null,
  'catalog.search': { limit: 100_000 },
  'catalog.product': { productRef: -1 },
  'catalog.openProduct': { productRef: 0 },
  'catalog.priceHistory': { productRef: 7 },
  'catalog.sync': { force: true },
  'catalog.syncStatus': 'now',
  'catalog.setWatched': { productRef: 7, watched: 'yes' },
  'orders.template': { productRef: 0, variantRef: 0 },
  'orders.place': { productRef: 7, variantRef: 1, units: 0, unitPriceFen: 1850 },
  'orders.list': { limit: 0 },
  'orders.get': { clientOrderRef: '../../etc/passwd' },
  'orders.submitVerificationCode': { clientOrderRef: 'PD_order_1', code: 'abc' },
  'orders.cancel': { clientOrderRef: 'PD_order_1', reason: 'x'.repeat(201) },
  'orders.requestRefund': { clientOrderRef: 'PD_order_1', reason: '' },
  'orders.confirm': { clientOrderRef: 'PD_order_1', units: 1.5 },
  'orders.withdraw': {},
  'orders.retryFailing': {},
  'orders.refresh': { clientOrderRef: 'PD order 1' },
  'orders.inFlight': { all: true },
  'batch.preview': { file: { fileName: 'a.csv', dataBase64: 'not base64!' }, productRef: 7, variantRef: 0, mapping: null },
  'batch.place': { file: { fileName: 'a.csv', dataBase64: 'YSxi' }, productRef: 7, variantRef: 0, mapping: { account: 'a' }, unitPriceFen: 1850, confirmedTotalFen: 1850, confirmedRows: 1, draftRef: 'short' },
  'batch.status': { batchId: '../x' },
  'batch.parsePaste': { text: 'a', fieldCount: 0 },
  'batch.retryFailed': { batchId: 'b_1', file: { fileName: '', dataBase64: 'YSxi' } },
  'batch.confirmPrice': { batchId: 'b_1', unitPriceFen: 0 },
  'batch.exportResults': { batchId: 'b_1', file: { fileName: 'a.csv', dataBase64: 'YSxi' }, format: 'pdf' },
  'vault.cards': { clientOrderRef: 'has space' },
  'vault.reveal': { clientOrderRef: 'PD_order_1', seq: -1 },
  'vault.copy': { ...card, field: 'everything' },
  'vault.list': { offset: 0, limit: 100_000 },
  'vault.exportPreview': { selection: { kind: 'everything' } },
  'vault.export': { selection: { kind: 'notExported' }, format: 'pdf' },
  'vault.mark': { cards: [], flag: 'used', value: true },
  'vault.keyStatus': { missing: true },
  'vault.startNewKey': 'now',
  'audit.list': { limit: 0 },
  'aftersales.list': { clientOrderRef: 'no spaces allowed' },
  'aftersales.get': { platformCaseRef: '' },
  'aftersales.refresh': {},
  'aftersales.open': { clientOrderRef: 'PD_order_1', category: 'angry', description: 'x', images: [] },
  'aftersales.send': { platformCaseRef: 'AS_1', text: 'hi', images: ['https://a', 'https://b', 'https://c', 'https://d', 'https://e', 'https://f'] },
  'aftersales.markRead': { platformCaseRef: 42 },
  'aftersales.unread': { all: true },
  'books.spend': { from: '2026-11-01', to: '2026-11-30', timeZone: 'Asia/Shanghai', productType: 'voucher' },
  'books.exportSpend': { query: { from: '2026-11-01', to: '2026-11-30', timeZone: 'Asia/Shanghai' }, chart: 'pie', format: 'csv' },
  'settings.get': { all: true },
  'settings.set': { theme: 'neon' },
  'settings.desktop': { platform: 'win32' },
  'settings.ngrokAuthtoken': { authtoken: 'x' },
  'settings.saveNgrokAuthtoken': { authtoken: '' },
  'events.health': 0,
  'secrets.usePassphraseFile': { passphrase: '' },
  'books.reconcile': { fromDay: '25/11/2026' },
  'books.reconcileLatest': { sneaky: true },
  'books.recompare': 'now',
  'books.refreshOrder': { clientOrderRef: 'has space' },
  'books.recordForeign': {},
  'books.exportReconcile': { format: 'zip' },
  'profiles.list': { sneaky: true },
  'profiles.add': { name: 7 },
  'profiles.rename': { profileId: '../p1', name: 'x' },
  'profiles.switch': { profileId: 'p1', extra: true },
  'profiles.work': {},
  'profiles.remove': { profileId: 'p2' },
  'catalog.compare': { text: '' },
  'links.list': { all: true },
  'links.link': { a: { profileId: 'p1', productRef: 7, variantRef: 0 } },
  'links.unlink': { key: { profileId: 'p1', productRef: -7, variantRef: 0 } },
  'links.forVariant': { key: { profileId: 'p1', productRef: 7 } },
  'links.setRule': { linkId: 1, rule: { maxUnitPriceFen: 0, preference: ['p2'] } },
  'orders.offers': { key: { profileId: 'p1', productRef: 7, variantRef: 0 }, units: 0 },
};

const channels = Object.keys(CHANNELS) as ChannelName[];

function setUp() {
  const fake = fakeIpcMain();
  Object.assign(electron.ipcMain, { handle: fake.handle.bind(fake), removeHandler: fake.removeHandler.bind(fake) });
  const main: FakeWebContents = fakeWebContents();
  let window: FakeWebContents | null = main;
  const handle = vi.fn((channel: ChannelName, input: unknown): Promise<IpcResult<unknown>> => Promise.resolve({ ok: true, value: { channel, input } }));
  const problems: unknown[] = [];
  const unbind = bindIpcHandlers({
    ipcMain,
    service: { handle },
    isTrustedSender: createSenderCheck({ trustedContents: () => window, isAppUrl: createAppUrlMatcher(APP_URL) }),
    onProblem: (problem) => problems.push(problem),
  });
  return {
    fake,
    main,
    handle,
    problems,
    unbind,
    closeWindow: () => {
      window = null;
    },
    /** A call from the main window's top frame, as the preload makes it. */
    call: (channel: ChannelName, input: unknown) => fake.invoke(ipcChannelName(channel), main, main.mainFrame, input),
  };
}

describe('IPC binding: every channel of the contract', () => {
  let env: ReturnType<typeof setUp>;
  beforeEach(() => {
    env = setUp();
  });

  it('binds exactly the contract channels under the pd: prefix, and unbinds them', () => {
    expect([...env.fake.handlers.keys()].sort()).toEqual(channels.map((c) => `pd:${c}`).sort());
    env.unbind();
    expect(env.fake.handlers.size).toBe(0);
  });

  describe.each(channels)('%s', (channel) => {
    it('passes a valid call from the app window to the service and answers its result', async () => {
      const answer = await env.call(channel, VALID[channel]);
      expect(env.handle).toHaveBeenCalledTimes(1);
      expect(env.handle.mock.calls[0]?.[0]).toBe(channel);
      // As it came: the app service parses it, once (see 'through the app service' below).
      expect(answer).toEqual({ ok: true, value: { channel, input: VALID[channel] } });
    });

    it('hands an input its schema refuses to the service as it came: the service is the one parse', async () => {
      await env.call(channel, INVALID[channel]);
      expect(env.handle).toHaveBeenCalledTimes(1);
      expect(env.handle.mock.calls[0]?.[1]).toEqual(INVALID[channel]);
    });

    it('refuses a call from another origin, a subframe, another web contents, or a gone frame', async () => {
      const wire = ipcChannelName(channel);
      const input = VALID[channel];
      // The main window's top frame showing a foreign page (navigated away, or tricked into it).
      const foreignTop = { ...env.main.mainFrame, url: 'https://evil.example/' };
      // Another web contents entirely, showing a foreign page.
      const navigated = fakeWebContents('https://evil.example/phish.html');
      const subframe = fakeFrame(APP_URL, env.main.mainFrame, env.main.mainFrame.processId);
      const otherWindow = fakeWebContents(APP_URL);
      const attempts = [
        env.fake.invoke(wire, env.main, foreignTop, input),
        env.fake.invoke(wire, env.main, subframe, input),
        env.fake.invoke(wire, otherWindow, otherWindow.mainFrame, input),
        env.fake.invoke(wire, navigated, navigated.mainFrame, input),
        env.fake.invoke(wire, env.main, null, input),
      ];
      for (const answer of await Promise.all(attempts)) {
        expect(answer).toEqual({ ok: false, error: { code: 'FORBIDDEN_SENDER', message: expect.any(String) as string } });
      }
      expect(env.handle).not.toHaveBeenCalled();
      expect(env.problems).toHaveLength(attempts.length);
    });
  });

  it('refuses everything once the main window is closed or destroyed', async () => {
    env.main.destroyed = true;
    expect(await env.call('connection.status', undefined)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    env.main.destroyed = false;
    env.closeWindow();
    expect(await env.call('connection.status', undefined)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(env.handle).not.toHaveBeenCalled();
  });

  it('accepts the dev server origin and refuses its look-alikes', async () => {
    const fake = fakeIpcMain();
    const dev = fakeWebContents('http://localhost:5173/');
    const handle = vi.fn(() => Promise.resolve<IpcResult<unknown>>({ ok: true, value: 'ok' }));
    bindIpcHandlers({ ipcMain: fake, service: { handle }, isTrustedSender: createSenderCheck({ trustedContents: () => dev, isAppUrl: createAppUrlMatcher('http://localhost:5173/') }) });
    const wire = ipcChannelName('account.get');
    expect(await fake.invoke(wire, dev, dev.mainFrame)).toEqual({ ok: true, value: 'ok' });
    for (const url of ['http://localhost:5174/', 'http://localhost.evil.example:5173/', 'file:///opt/procure-desk/out/renderer/index.html', 'app://procure-desk/index.html']) {
      expect(await fake.invoke(wire, dev, { ...dev.mainFrame, url })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    }
    expect(handle).toHaveBeenCalledTimes(1);
  });

  it('turns a service that throws into INTERNAL without its message crossing', async () => {
    env.handle.mockImplementationOnce(() => Promise.reject(new Error('SQLITE_BUSY at /home/buyer/data AK_secret')));
    const answer = await env.call('account.get', undefined);
    expect(answer).toEqual({ ok: false, error: { code: 'INTERNAL', message: expect.not.stringContaining('AK_secret') as string } });
  });

  it('passes the service error result through unchanged', async () => {
    const refusal: IpcResult<unknown> = { ok: false, error: { code: 'MERCHANT_REFUSED', message: 'balance too low', merchantCode: 40201, requestId: 'r1' } };
    env.handle.mockResolvedValueOnce(refusal);
    expect(await env.call('orders.place', VALID['orders.place'])).toEqual(refusal);
  });
});

describe('IPC binding through the app service: one parse, one redacting error shape', () => {
  const KEY = `AK_${'cd'.repeat(16)}`;
  let dataDir: string;
  let desk: Desk;
  const logLines: string[] = [];

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'procure-ipc-binding-'));
    const logger = new RedactingLogger({ sink: (line) => logLines.push(line) });
    // What the hosts run: the desk service over every profile (contract §15).
    desk = openDesk({ dataDir, secrets: new MemorySecretStore(), logger });
  });

  afterAll(async () => {
    await desk?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(channels)('%s: an input the contract refuses is the service\'s INVALID_INPUT, naming the channel', async (channel) => {
    const fake = fakeIpcMain();
    const main = fakeWebContents();
    const logger = new RedactingLogger({ sink: (line) => logLines.push(line) });
    const service = createDeskService(desk, { startDemoMerchant: () => Promise.reject(new Error('no demo')) }, { logger });
    bindIpcHandlers({ ipcMain: fake, service, isTrustedSender: createSenderCheck({ trustedContents: () => main, isAppUrl: createAppUrlMatcher(APP_URL) }) });
    const answer = (await fake.invoke(ipcChannelName(channel), main, main.mainFrame, INVALID[channel])) as IpcResult<unknown>;
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: `the request for ${channel} does not match the contract` } });
    if (!answer.ok) expect(answer.error.fields?.length ?? 0).toBeGreaterThan(0);
  });

  it('never echoes a key sent in a refused input', async () => {
    const fake = fakeIpcMain();
    const main = fakeWebContents();
    const logger = new RedactingLogger({ sink: (line) => logLines.push(line) });
    logger.registerSecret(KEY);
    const service = createDeskService(desk, { startDemoMerchant: () => Promise.reject(new Error('no demo')) }, { logger });
    bindIpcHandlers({ ipcMain: fake, service, isTrustedSender: createSenderCheck({ trustedContents: () => main, isAppUrl: createAppUrlMatcher(APP_URL) }) });
    const answer = await fake.invoke(ipcChannelName('connection.connect'), main, main.mainFrame, { baseUrl: KEY, userId: 7, apiKey: KEY, caCertPem: null });
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(answer)).not.toContain(KEY);
  });
});
