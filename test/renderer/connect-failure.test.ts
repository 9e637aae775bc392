// The connect form's reading of a failed connect test: each transport reason, the merchant's access
// codes, NOT_OPENAPI and the input problems get their own words; never the banner's "offline".
import { describe, expect, it } from 'vitest';
import { IpcCallError, type IpcError } from '../../src/shared/ipc/ipc-result';
import { TRANSPORT_REASONS } from '../../src/shared/transport-reasons';
import { connectFailureOf } from '../../src/renderer/src/lib/connect-failure';
import { caCertFieldProblem, caCertToSend } from '../../src/renderer/src/lib/connect-form-rules';
import { en } from '../../src/renderer/src/i18n/messages-en';
import { zhCN } from '../../src/renderer/src/i18n/messages-zh-cn';

const failed = (error: IpcError): unknown => new IpcCallError(error);

describe('connectFailureOf', () => {
  it('names every transport reason, each with words in both languages', () => {
    for (const reason of TRANSPORT_REASONS) {
      const failure = connectFailureOf(failed({ code: 'MERCHANT_UNREACHABLE', message: 'x', transportReason: reason }));
      expect(failure?.kind).toBe(reason);
      for (const table of [en, zhCN] as Record<string, string>[]) {
        expect(table[`connectFailure.${reason}.title`], reason).toBeTruthy();
        expect(table[`connectFailure.${reason}.body`], reason).toBeTruthy();
      }
    }
    expect(connectFailureOf(failed({ code: 'MERCHANT_UNREACHABLE', message: 'x' }))?.kind).toBe('unreachable');
  });

  it('reads the merchant access codes, NOT_OPENAPI, a switch refusal and the input problems', () => {
    expect(connectFailureOf(failed({ code: 'MERCHANT_REFUSED', message: 'x', merchantCode: 401001, requestId: 'req_1' }))).toMatchObject({ kind: 'keyInvalid', requestId: 'req_1' });
    expect(connectFailureOf(failed({ code: 'MERCHANT_REFUSED', message: 'x', merchantCode: 403002 }))?.kind).toBe('ipDenied');
    expect(connectFailureOf(failed({ code: 'MERCHANT_REFUSED', message: 'x', merchantCode: 403005 }))?.kind).toBe('suspended');
    expect(connectFailureOf(failed({ code: 'MERCHANT_REFUSED', message: 'x', merchantCode: 503001 }))?.kind).toBe('merchantTrouble');
    expect(connectFailureOf(failed({ code: 'NOT_OPENAPI', message: 'x' }))?.kind).toBe('notOpenApi');
    expect(connectFailureOf(failed({ code: 'ACTION_NOT_ALLOWED', message: 'x' }))?.kind).toBe('switchRefused');
    expect(connectFailureOf(failed({ code: 'INVALID_INPUT', message: 'x', fields: [{ path: 'baseUrl', message: 'addressInsecure' }] }))?.kind).toBe('insecure');
    expect(connectFailureOf(failed({ code: 'INVALID_INPUT', message: 'x', fields: [{ path: 'caCertPem', message: 'caCertNotPem' }] }))).toMatchObject({ kind: 'input', input: 'caCertNotPem' });
    // Not a connect failure: the general explanation applies.
    expect(connectFailureOf(failed({ code: 'INVALID_INPUT', message: 'x', fields: [{ path: 'apiKey', message: 'too long' }] }))).toBeNull();
    expect(connectFailureOf(new Error('boom'))).toBeNull();
  });
});

describe('the CA field', () => {
  it('treats an empty field as no CA and a chosen file over the bound as too large', () => {
    expect(caCertFieldProblem(undefined)).toBeNull();
    expect(caCertFieldProblem('  ')).toBeNull();
    expect(caCertToSend('  ')).toBeNull();
    expect(caCertFieldProblem(' '.repeat(70_000))).toBe('caCertTooLarge');
    expect(caCertFieldProblem('not a certificate')).toBe('caCertNotPem');
  });
});
