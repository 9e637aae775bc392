// handle()'s guard, without a merchant: a handler that answers outside the contract becomes INTERNAL
// (logged, never sent), a handler that throws something unexpected becomes INTERNAL with a generic
// message (the detail, redacted, only in the log), and core and merchant errors map to their codes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppService, type AppService } from '../../../src/core/app/app-service';
import { AppFailure, INTERNAL_MESSAGE, toIpcError } from '../../../src/core/app/error-mapping';
import { ConnectionInputError } from '../../../src/core/connection/connection-settings';
import { createCore, NotConnectedError, type Core } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MerchantApiError, MerchantProtocolError, MerchantTransportError } from '../../../src/core/merchant/merchant-errors';
import { ActionNotAllowedError, PurchaseValidationError, TemplateMissingError } from '../../../src/core/orders/order-errors';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

const KEY = `AK_${'ab'.repeat(16)}`;

// A settings handler with bugs: one answer outside the contract, one unexpected throw carrying a key.
vi.mock('../../../src/core/app/settings-handlers', () => ({
  settingsHandlers: () => ({
    'settings.get': () => ({ language: 'klingon', theme: 'dark', webhookTunnel: 'off', webhookPort: 0, apiKey: KEY }),
    'settings.set': () => {
      throw new TypeError(`cannot read property of undefined near ${KEY}`);
    },
  }),
}));

let dataDir: string;
let core: Core;
let app: AppService;
const logLines: string[] = [];
const logger = new RedactingLogger({ sink: (line) => logLines.push(line) });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'procure-app-guard-'));
  core = await createCore({ dataDir, secrets: new MemorySecretStore(), logger });
  app = createAppService(core, { startDemoMerchant: () => Promise.reject(new Error('no demo')) }, { logger });
});

afterAll(async () => {
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('app service guard', () => {
  it('turns an answer outside the contract into INTERNAL, logged', async () => {
    const result = await app.handle('settings.get', undefined);
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: INTERNAL_MESSAGE } });
    expect(logLines.some((l) => l.includes('does not match the contract') && l.includes('settings.get'))).toBe(true);
  });

  it('turns an unexpected throw into a generic INTERNAL; the detail goes to the log, redacted', async () => {
    const result = await app.handle('settings.set', { theme: 'light' });
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: INTERNAL_MESSAGE } });
    expect(logLines.some((l) => l.includes('TypeError'))).toBe(true);
    expect(logLines.join('\n')).not.toContain(KEY);
  });

  it('never throws, whatever the input', async () => {
    for (const input of [null, 0, 'x', [], { __proto__: { units: 1 } }, Symbol('s')]) {
      await expect(app.handle('orders.place', input)).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
  });

  it('maps core and merchant errors to their codes', () => {
    expect(toIpcError(new MerchantApiError(422, 422102, 'req-1', null), logger, 'c')).toMatchObject({ code: 'MERCHANT_REFUSED', merchantCode: 422102, requestId: 'req-1' });
    expect(toIpcError(new MerchantTransportError('timeout', 'timed out', null), logger, 'c')).toMatchObject({ code: 'MERCHANT_UNREACHABLE' });
    expect(toIpcError(new MerchantProtocolError(200, 'not JSON', 'req-2'), logger, 'c')).toMatchObject({ code: 'MERCHANT_MALFORMED', requestId: 'req-2' });
    expect(toIpcError(new PurchaseValidationError([{ path: 'units', code: 'UNITS_STEP', message: 'must be 1 plus a multiple of 5' }]), logger, 'c')).toEqual({
      code: 'INVALID_INPUT',
      message: 'the order does not fit the purchase template',
      fields: [{ path: 'units', message: 'must be 1 plus a multiple of 5' }],
    });
    expect(toIpcError(new ActionNotAllowedError('refund', 'o_1', 'in state "pending" the merchant allows: cancel'), logger, 'c')).toMatchObject({ code: 'ACTION_NOT_ALLOWED' });
    expect(toIpcError(new NotConnectedError(), logger, 'c')).toMatchObject({ code: 'NOT_CONNECTED' });
    expect(toIpcError(new TemplateMissingError(1, 0), logger, 'c')).toMatchObject({ code: 'TEMPLATE_MISSING' });
    expect(toIpcError(new ConnectionInputError('the merchant address must use https://'), logger, 'c')).toMatchObject({ code: 'INVALID_INPUT' });
    expect(toIpcError(new AppFailure('NOT_FOUND', 'no order o_1 here'), logger, 'c')).toEqual({ code: 'NOT_FOUND', message: 'no order o_1 here' });
    const leaked = toIpcError(new AppFailure('INVALID_INPUT', `bad ${KEY}`), logger, 'c');
    expect(leaked.message).not.toContain(KEY);
  });
});
