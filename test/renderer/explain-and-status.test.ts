import { describe, expect, it } from 'vitest';
import { IpcCallError } from '../../src/shared/ipc/ipc-result';
import { explainError, problemOfLastErrorCode, problemOfMerchantCode } from '../../src/renderer/src/lib/explain-error';
import { codeWasRejected, isQueued, orderStatusView } from '../../src/renderer/src/lib/order-status';
import { buildCategoryTree } from '../../src/renderer/src/lib/category-tree';
import { en } from '../../src/renderer/src/i18n/messages-en';
import { zhCN } from '../../src/renderer/src/i18n/messages-zh-cn';
import { resolveLocale } from '../../src/renderer/src/i18n/locale';
import { translate } from '../../src/renderer/src/i18n/translate';

describe('merchant errors by meaning', () => {
  it('maps each business code the buyer can meet', () => {
    expect(problemOfMerchantCode(422103)).toBe('balance');
    expect(problemOfMerchantCode(422102)).toBe('inventory');
    expect(problemOfMerchantCode(409101)).toBe('templateChanged');
    expect(problemOfMerchantCode(422101)).toBe('unavailable');
    expect(problemOfMerchantCode(401001)).toBe('keyInvalid');
    expect(problemOfMerchantCode(403005)).toBe('suspended');
    expect(problemOfMerchantCode(403002)).toBe('ipDenied');
    expect(problemOfMerchantCode(429001)).toBe('rateLimited');
    expect(problemOfMerchantCode(429999)).toBe('rateLimited');
    expect(problemOfMerchantCode(499999)).toBe('unknown');
  });

  it('reads IpcCallError and an order’s lastErrorCode', () => {
    const refused = explainError(new IpcCallError({ code: 'MERCHANT_REFUSED', message: 'x', merchantCode: 422103, requestId: 'r1' }));
    expect(refused).toMatchObject({ problem: 'balance', merchantCode: 422103, requestId: 'r1' });
    expect(explainError(new IpcCallError({ code: 'MERCHANT_UNREACHABLE', message: 'down' })).problem).toBe('offline');
    expect(explainError(new Error('boom'))).toMatchObject({ problem: 'unknown', detail: 'boom' });
    // The core process died during the call (it may have been done), or did not come back in time.
    expect(explainError(new IpcCallError({ code: 'CORE_RESTARTED', message: 'x' })).problem).toBe('coreRestarted');
    expect(explainError(new IpcCallError({ code: 'CORE_UNAVAILABLE', message: 'x' })).problem).toBe('coreUnavailable');
    expect(problemOfLastErrorCode('422102')).toBe('inventory');
    expect(problemOfLastErrorCode(null)).toBeNull();
  });

  it('has words for every problem in both languages', () => {
    for (const problem of ['balance', 'inventory', 'templateChanged', 'unavailable', 'keyInvalid', 'suspended', 'ipDenied', 'rateLimited', 'offline', 'coreRestarted', 'coreUnavailable', 'unknown']) {
      expect(Object.hasOwn(en, `problem.${problem}.title`)).toBe(true);
      expect(Object.hasOwn(en, `problem.${problem}.body`)).toBe(true);
      expect(Object.hasOwn(zhCN, `problem.${problem}.title`)).toBe(true);
    }
  });
});

describe('order status', () => {
  it('never shows an unknown merchant state as success', () => {
    expect(orderStatusView('accepted', 'shipped')).toMatchObject({ key: 'status.unknownValue', raw: 'shipped', success: false });
    expect(orderStatusView('accepted', 'completed')).toMatchObject({ key: 'orderState.completed', success: true, tone: 'success' });
    expect(orderStatusView('accepted', 'refunded').success).toBe(false);
    expect(orderStatusView('queued', null)).toMatchObject({ key: 'intent.queued', success: false });
    expect(orderStatusView('mystery', null)).toMatchObject({ raw: 'mystery', success: false });
  });

  it('names each park of a merchant refusal, never as success, with what to do in both languages', () => {
    for (const status of ['needs_key', 'account_suspended', 'access_denied']) {
      expect(orderStatusView(status, null)).toMatchObject({ key: `intent.${status}`, tone: 'error', raw: null, success: false });
      expect(isQueued(status)).toBe(true);
      for (const messages of [en, zhCN] as Record<string, string>[]) {
        expect(messages[`intent.${status}`]).toBeTruthy();
        expect(messages[`accessPark.${status}`]).toBeTruthy();
      }
    }
  });
});

describe('category tree', () => {
  it('nests by parentRef, keeps orphans at the top and survives cycles', () => {
    const tree = buildCategoryTree([
      { catalogRef: 1, name: 'Games', parentRef: null, productCount: 3 },
      { catalogRef: 2, name: 'Steam', parentRef: 1, productCount: 2 },
      { catalogRef: 3, name: 'Orphan', parentRef: 99, productCount: 1 },
      { catalogRef: 4, name: 'A', parentRef: 5, productCount: 0 },
      { catalogRef: 5, name: 'B', parentRef: 4, productCount: 0 },
    ]);
    expect(tree.map((node) => node.name)).toEqual(['B', 'Games', 'Orphan']);
    expect(tree.find((node) => node.name === 'Games')?.children.map((node) => node.name)).toEqual(['Steam']);
  });
});

describe('i18n', () => {
  it('has the same keys in zh-CN and en, none empty', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
    for (const text of [...Object.values(en), ...Object.values(zhCN)]) expect(text.length).toBeGreaterThan(0);
  });

  it('follows the system language unless chosen, and fills placeholders', () => {
    expect(resolveLocale('system', 'zh-TW')).toBe('zh-CN');
    expect(resolveLocale('system', 'en-US')).toBe('en');
    expect(resolveLocale('en', 'zh-CN')).toBe('en');
    expect(translate('en', 'catalog.results', { count: 1000 })).toBe('1,000 products');
    expect(translate('zh-CN', 'catalog.results', { count: 5 })).toBe('共 5 件商品');
  });
});

describe('codeWasRejected', () => {
  const history = (...states: string[]) => states.map((state, i) => ({ state, at: i }));
  it('is true only when the merchant asks for a code again after one was taken', () => {
    expect(codeWasRejected({ state: 'verifying', stateHistory: history('pending', 'processing', 'verifying') })).toBe(false);
    expect(codeWasRejected({ state: 'verifying', stateHistory: history('pending', 'verifying', 'processing', 'verifying') })).toBe(true);
    expect(codeWasRejected({ state: 'processing', stateHistory: history('verifying', 'processing') })).toBe(false);
    expect(codeWasRejected({ state: 'verifying', stateHistory: history('verifying') })).toBe(false);
  });
});
