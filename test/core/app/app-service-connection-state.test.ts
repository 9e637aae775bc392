// The one connection state machine through the app's contract, driven by the sandbox's real faults
// over HTTPS: connection.state answers and the connection.state event are pushed on each transition
// (notConnected before a merchant, online, degraded by 503 and 429, offline when the merchant refuses
// connections, certificate for an expired / other-host / untrusted certificate, suspended, ipDenied,
// keyRefused after the key was rotated) and the state returns to online when the fault ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionStateView } from '../../../src/shared/ipc/views/connection';
import { createAppKit, expectContractShapes, expectNoSecretLeft, startMerchant, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE, products: 20 });
  account = await merchant.newAccount('100000');
  kit = await createAppKit(SCALE);
  kit.secrets.push(account.apiKey);
  await kit.app.start();
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const pushedStates = (): ConnectionStateView[] => kit.events.filter((e) => e.event === 'connection.state').map((e) => e.payload as ConnectionStateView);
const faults = (body: Record<string, unknown>): Promise<unknown> => merchant.control('POST', '/control/faults', body);

/** Asks the merchant (GET /account, as the buyer's screen does) until the state is `state`; returns it. */
async function stateAfterAsking(state: ConnectionStateView['state']): Promise<ConnectionStateView> {
  return waitFor(`connection state ${state}`, async () => {
    await kit.call('account.get');
    const view = await kit.ok('connection.state');
    return view.state === state ? view : null;
  });
}

async function backOnline(): Promise<void> {
  const view = await stateAfterAsking('online');
  expect(pushedStates().at(-1)?.state).toBe('online');
  expect(view.lastSuccessAt).not.toBeNull();
}

describe('connection state through the app contract', () => {
  it('is notConnected before a merchant is set up, online once connected (pushed once)', async () => {
    expect((await kit.ok('connection.state')).state).toBe('notConnected');
    await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    const view = await kit.ok('connection.state');
    expect(view).toMatchObject({ state: 'online', merchantCode: null, httpStatus: null });
    expect(view.lastSuccessAt).not.toBeNull();
    expect(pushedStates().at(-1)?.state).toBe('online');
    // Requests that change nothing push nothing.
    const pushed = pushedStates().length;
    await kit.ok('account.get');
    await kit.ok('account.get');
    expect(pushedStates().length).toBe(pushed);
  });

  it('503 answers: degraded, with the code, status and Retry-After; online again when they end', async () => {
    await faults({ errorRate: 1, errorStatus: 503 });
    const view = await stateAfterAsking('degraded');
    expect(view).toMatchObject({ merchantCode: 503001, httpStatus: 503 });
    expect(view.retryAtMs).not.toBeNull();
    expect(pushedStates().at(-1)?.state).toBe('degraded');
    await faults({ errorRate: 0 });
    await backOnline();
  });

  it('429 quota answers: degraded with 429001', async () => {
    await faults({ errorRate: 1, errorStatus: 429 });
    expect(await stateAfterAsking('degraded')).toMatchObject({ merchantCode: 429001, httpStatus: 429 });
    await faults({ errorRate: 0, errorStatus: 500 });
    await backOnline();
  });

  it('the merchant refuses connections: offline (refused); online when it listens again', async () => {
    await faults({ refuseConnections: true });
    expect(await stateAfterAsking('offline')).toMatchObject({ transportReason: 'refused', httpStatus: null });
    await faults({ refuseConnections: false });
    await backOnline();
  });

  for (const [mode, reason] of [
    ['expired', 'tlsExpired'],
    ['otherHost', 'tlsHostname'],
    ['untrusted', 'tlsUntrusted'],
  ] as const) {
    it(`a ${mode} certificate: certificate (${reason}); online when the good one is back`, async () => {
      await faults({ tls: mode });
      expect(await stateAfterAsking('certificate')).toMatchObject({ transportReason: reason });
      await faults({ tls: 'valid' });
      await backOnline();
    });
  }

  it('the account suspended: suspended; lifted by the merchant, GET /account says online', async () => {
    await merchant.control('POST', `/control/accounts/${account.userId}`, { suspended: true });
    await stateAfterAsking('suspended');
    await merchant.control('POST', `/control/accounts/${account.userId}`, { suspended: false });
    await backOnline();
  });

  it('this address not on the allow-list: ipDenied (403002); online once allowed', async () => {
    await merchant.control('POST', `/control/accounts/${account.userId}`, { ipAllowList: ['203.0.113.9'] });
    expect(await stateAfterAsking('ipDenied')).toMatchObject({ merchantCode: 403002, httpStatus: 403 });
    await merchant.control('POST', `/control/accounts/${account.userId}`, { ipAllowList: null });
    await backOnline();
  });

  it('the key rotated: keyRefused (401), which nothing but a new key lifts; notConnected once the key is cleared', async () => {
    const { apiKey } = await merchant.control<{ apiKey: string }>('POST', `/control/accounts/${account.userId}/rotate-key`, {});
    kit.secrets.push(apiKey);
    expect(await stateAfterAsking('keyRefused')).toMatchObject({ merchantCode: 401001, httpStatus: 401 });
    await kit.call('account.get');
    expect((await kit.ok('connection.state')).state).toBe('keyRefused');
    await kit.ok('connection.replaceKey', { apiKey });
    expect((await kit.ok('connection.state')).state).toBe('online');
    expect(pushedStates().at(-1)?.state).toBe('online');
    await kit.ok('connection.clearKey');
    expect((await kit.ok('connection.state')).state).toBe('notConnected');
    expect(pushedStates().at(-1)?.state).toBe('notConnected');
    expectContractShapes(kit);
    expectNoSecretLeft(kit, kit.secrets);
  });
});
