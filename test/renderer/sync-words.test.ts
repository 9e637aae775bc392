// The sync bar's words from the status: the last success stays "last synced" through a failure, a
// first sync says so, phases and counts are translated with plural blocks, a bar with unknown work is
// indeterminate, the time left appears only when known, and every failure kind is said in both
// languages with the merchant code and request ID on a row of their own — never core's English.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SYNC_FAILURE_KINDS, SYNC_WORK_PHASES, TEMPLATE_SCOPES, type SyncFailureView, type SyncProgressView } from '../../src/shared/ipc/views/catalog';
import { TRANSPORT_REASONS } from '../../src/shared/transport-reasons';
import { barPercent, countLine, etaLine, failureWords, isSyncFailureCurrent, lastSyncedLine, stepLine } from '../../src/renderer/src/lib/sync-words';
import type { ConnectionStateView } from '../../src/shared/ipc/views/connection';
import { translate, translateDynamic } from '../../src/renderer/src/i18n/translate';
import type { MessageKey } from '../../src/renderer/src/i18n/messages-en';

const wordsOf = (locale: 'en' | 'zh-CN') => ({
  locale,
  t: (key: MessageKey, params?: Record<string, string | number>) => translate(locale, key, params),
  td: (key: string, fallback: MessageKey, params?: Record<string, string | number>) => translateDynamic(locale, key, fallback, params),
});
const zh = wordsOf('zh-CN');
const en = wordsOf('en');
const progress = (patch: Partial<SyncProgressView>): SyncProgressView => ({ phase: 'details', phaseIndex: 2, phaseCount: 3, done: 27, total: 60, fraction: 0.4, etaMs: null, templateScope: 'wanted', ...patch });
const failure = (patch: Partial<SyncFailureView>): SyncFailureView => ({ kind: 'merchant', merchantCode: 503001, transportReason: null, requestId: 'req_7f3a', notBeforeAt: null, at: 1_790_000_000, ...patch });
/** Latin words of two letters or more: none may reach a Chinese screen (codes and IDs are digits or refs). */
const ENGLISH = /\b[A-Za-z]{2,}\b/;

describe('last synced line', () => {
  it('keeps the last success, says a first sync is one, and "never" only when nothing runs', () => {
    expect(lastSyncedLine({ lastSyncedAt: 1_790_000_000, running: false }, zh)).toMatch(/^上次同步：/);
    expect(lastSyncedLine({ lastSyncedAt: 1_790_000_000, running: true }, en)).toMatch(/^Last synced /);
    expect(lastSyncedLine({ lastSyncedAt: null, running: true }, zh)).toBe('正在进行首次同步');
    expect(lastSyncedLine({ lastSyncedAt: null, running: true }, en)).toBe('First sync in progress');
    expect(lastSyncedLine({ lastSyncedAt: null, running: false }, zh)).toBe('从未同步');
  });
});

describe('progress row', () => {
  it('names the step of how many and the phase in the buyer’s language, with plural counts', () => {
    expect(stepLine(progress({}), zh)).toBe('第 2 步（共 3 步）：商品详情');
    expect(stepLine(progress({ phase: 'list', phaseIndex: 1 }), zh)).toBe('第 1 步（共 3 步）：商品列表');
    // The templates phase says for which variants: only watched or ordered ones, unless every variant was asked for.
    expect(stepLine(progress({ phase: 'templates', phaseIndex: 3, done: 1, total: 3 }), zh)).toBe('第 3 步（共 3 步）：下单表单（3 个关注或下过单的规格）');
    expect(stepLine(progress({ phase: 'templates', phaseIndex: 3, done: 0, total: 1 }), en)).toBe('Step 3 of 3: order forms (for 1 watched or ordered variant)');
    expect(stepLine(progress({ phase: 'templates', phaseIndex: 3, total: 1851, templateScope: 'all' }), en)).toBe('Step 3 of 3: order forms (every variant)');
    expect(stepLine(progress({ phase: 'templates', phaseIndex: 3, total: 1851, templateScope: 'all' }), zh)).toBe('第 3 步（共 3 步）：下单表单（全部规格）');
    expect(stepLine(progress({ phase: 'done', phaseIndex: null }), en)).toBeNull();
    expect(countLine(progress({}), zh)).toBe('27 / 60 件商品');
    expect(countLine(progress({}), en)).toBe('27 of 60 products');
    expect(countLine(progress({ phase: 'list', done: 1, total: 1 }), en)).toBe('1 of 1 page');
    expect(countLine(progress({ phase: 'list', done: 3, total: 11 }), zh)).toBe('3 / 11 页');
    expect(countLine(progress({ phase: 'templates', done: 1200, total: 3400 }), en)).toBe('1,200 of 3,400 variants');
    expect(countLine(progress({ phase: 'list', done: 1, total: null }), en)).toBe('1 request answered, total not known yet');
    expect(countLine(progress({ phase: 'list', done: 3, total: null }), zh)).toBe('已完成 3 个请求，总数尚不确定');
    for (const phase of SYNC_WORK_PHASES) {
      for (const templateScope of TEMPLATE_SCOPES) {
        expect(stepLine(progress({ phase, templateScope }), zh)).not.toMatch(ENGLISH);
        expect(countLine(progress({ phase, templateScope }), zh)).not.toMatch(ENGLISH);
      }
    }
  });

  it('shows the time left only when known, and an indeterminate bar while work is unknown', () => {
    expect(etaLine(progress({ etaMs: null }), en)).toBeNull();
    expect(etaLine(progress({ etaMs: 0 }), en)).toBeNull();
    expect(etaLine(progress({ etaMs: 1000 }), en)).toBe('about 1 second left');
    expect(etaLine(progress({ etaMs: 42_000 }), zh)).toBe('约剩 42 秒');
    expect(etaLine(progress({ etaMs: 17 * 60_000 }), en)).toBe('about 17 minutes left');
    expect(etaLine(progress({ etaMs: 17 * 60_000 }), zh)).toBe('约剩 17 分钟');
    expect(barPercent(progress({ fraction: null }))).toBeUndefined();
    expect(barPercent(progress({ fraction: 0.999 }))).toBe(99);
    fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (fraction) => {
      const percent = barPercent(progress({ fraction })) ?? -1;
      expect(percent).toBeGreaterThanOrEqual(0);
      expect(percent).toBeLessThanOrEqual(100);
    }));
  });
});

describe('why the last sync did not finish', () => {
  it('says the merchant’s 503 in Chinese with the code and request ID on their own row', () => {
    const words = failureWords(failure({}), zh);
    expect(words.reason).toBe('商户系统暂时无法工作，请稍后再同步。');
    expect(failureWords(failure({}), en).reason).toBe('The merchant’s system is not working right now. Try the sync again later.');
    // A code with no words of the sync's own keeps the general ones (what to do about a revoked key).
    expect(failureWords(failure({ merchantCode: 401001 }), zh).reason).toBe(translate('zh-CN', 'problem.keyInvalid.body'));
    expect(words.reason).not.toMatch(/503|TEMPORARILY|merchant error/);
    expect(words.detail).toBe('商户错误码 503001 · 请求编号：req_7f3a');
  });

  it('says every kind and transport reason in both languages, with no English on the Chinese screen', () => {
    const cases: SyncFailureView[] = [
      ...SYNC_FAILURE_KINDS.map((kind) => failure({ kind, merchantCode: kind === 'merchant' ? 429001 : null, notBeforeAt: kind === 'notBefore' ? 1_790_000_600 : null })),
      ...TRANSPORT_REASONS.map((transportReason) => failure({ kind: 'transport', merchantCode: null, transportReason })),
      failure({ kind: 'merchant', merchantCode: 499999 }),
      failure({ kind: 'transport', merchantCode: null, transportReason: null, requestId: null }),
    ];
    for (const item of cases) {
      const chinese = failureWords(item, zh);
      expect(chinese.reason, JSON.stringify(item)).not.toMatch(ENGLISH);
      expect(chinese.reason.length).toBeGreaterThan(3);
      expect(failureWords(item, en).reason).toMatch(/^[A-Z]/);
    }
    expect(failureWords(failure({ kind: 'transport', merchantCode: null, transportReason: 'tlsExpired' }), zh).reason).toBe('商户的证书已过期。');
    expect(failureWords(failure({ kind: 'transport', merchantCode: null, transportReason: null, requestId: null }), en).detail).toBe('');
  });

  it('words a merchant’s wait as time left, recomputed, and never names a time that has passed', () => {
    const waiting = failure({ kind: 'notBefore', merchantCode: null, notBeforeAt: 1_790_000_600 });
    const at = (secondsBefore: number): number => (1_790_000_600 - secondsBefore) * 1000;
    expect(failureWords(waiting, zh, at(12)).reason).toBe('商户要求稍候再试：同步将在 12 秒后自动继续。');
    expect(failureWords(waiting, zh, at(11.2)).reason).toBe('商户要求稍候再试：同步将在 12 秒后自动继续。');
    expect(failureWords(waiting, en, at(1)).reason).toBe('The merchant asked us to wait: the sync goes on by itself in 1 s.');
    expect(failureWords(waiting, zh, at(600)).reason).toBe('商户要求稍候再试：同步将在 10 分钟后自动继续。');
    for (const past of [0, -1, -21, -3600]) {
      expect(failureWords(waiting, zh, at(past)).reason).toBe('商户要求稍候再试；等待已结束，可以立即同步。');
      expect(failureWords(waiting, en, at(past)).reason).toBe('The merchant asked us to wait; that wait is over: you can sync now.');
    }
  });
});

describe('a failure that has ended', () => {
  const at = 1_790_000_000;
  const connection = (state: ConnectionStateView['state'], lastSuccessAt: number | null, slowMs: number | null = null) => ({ state, lastSuccessAt, slowMs });
  const certificate = failure({ kind: 'transport', merchantCode: null, transportReason: 'tlsExpired', at });

  it('a failure to reach the merchant is current until the merchant answered after it and answers now', () => {
    expect(isSyncFailureCurrent(certificate, connection('certificate', at - 60))).toBe(true);
    // Answered since, and something fails again now: that is the banner's to say, the sync's failure is over.
    expect(isSyncFailureCurrent(certificate, connection('certificate', at + 30))).toBe(false);
    expect(isSyncFailureCurrent(certificate, connection('offline', at + 30))).toBe(false);
    // A success in the failure's own second may have come just before it: only an answering merchant tells.
    expect(isSyncFailureCurrent(certificate, connection('certificate', at))).toBe(true);
    expect(isSyncFailureCurrent(certificate, connection('online', at))).toBe(false);
    expect(isSyncFailureCurrent(certificate, connection('online', at - 60))).toBe(true);
    expect(isSyncFailureCurrent(certificate, connection('online', at + 30))).toBe(false);
    // Slow but answering is answering.
    expect(isSyncFailureCurrent(certificate, connection('degraded', at + 30, 9_000))).toBe(false);
    expect(isSyncFailureCurrent(certificate, connection('degraded', at))).toBe(true);
    expect(isSyncFailureCurrent(certificate, null)).toBe(true);
    for (const ended of [failure({ merchantCode: 503001 }), failure({ merchantCode: 429001 }), failure({ merchantCode: 401001 }), failure({ kind: 'malformed', merchantCode: null }), failure({ kind: 'transport', merchantCode: null, transportReason: 'refused' })]) {
      expect(isSyncFailureCurrent(ended, connection('online', at + 1)), JSON.stringify(ended)).toBe(false);
    }
  });

  it('a failure of the sync itself, or a refusal of one request, is current until the next sync', () => {
    for (const own of [failure({ kind: 'paging', merchantCode: null }), failure({ kind: 'other', merchantCode: null }), failure({ merchantCode: 404001 }), failure({ merchantCode: 400001 })]) {
      expect(isSyncFailureCurrent(own, connection('online', at + 600)), JSON.stringify(own)).toBe(true);
    }
  });
});
