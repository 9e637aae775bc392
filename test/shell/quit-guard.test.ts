// The quit question's words (contract §17.2) from main's one table of words: counted orders in either
// language (full-width punctuation in Chinese, no space between its sentences), "could not be checked"
// when core could not say, nothing to ask without orders in flight; and a quit that cannot be checked
// still asks rather than quitting silently.
import { describe, expect, it, vi } from 'vitest';
import { labelsFor } from '../../src/main/app-locale';
import { createQuitGuard, quitQuestion } from '../../src/main/quit-guard';

const NEW_KEYS = ['stillRunningTitle', 'stillRunningBody', 'quitInFlightTitle', 'quitInFlightNotSentOne', 'quitInFlightNotSentMany', 'quitInFlightAwaitingOne', 'quitInFlightAwaitingMany', 'quitInFlightNotSentDetail', 'quitInFlightAwaitingDetail', 'quitUncheckedTitle', 'quitUncheckedBody', 'quitUncheckedDetail', 'quitAnyway', 'keepRunning'] as const;

describe('the quit question', () => {
  it('counts the orders in flight in Chinese, with full-width punctuation', () => {
    const zh = labelsFor('zh-CN');
    expect(quitQuestion({ notSent: 3, awaitingAnswer: 0 }, zh)).toEqual({ title: '仍有订单在处理中', message: '有 3 个订单尚未发送给商户。', detail: '尚未发送的订单会保留，在采购台下次启动时发送。', quit: '仍要退出', keep: '继续运行' });
    expect(quitQuestion({ notSent: 1, awaitingAnswer: 2 }, zh)?.message).toBe('有 1 个订单尚未发送给商户。有 2 个订单已发送，商户尚未答复。');
    for (const key of NEW_KEYS) expect(zh[key], key).not.toMatch(/[,;:?!()]|\.(?!\w)/);
    expect(quitQuestion({ notSent: 0, awaitingAnswer: 0 }, zh)).toBeNull();
  });

  it('says it could not check, and still asks, when core does not answer', async () => {
    const en = labelsFor('en');
    expect(quitQuestion(null, en)).toMatchObject({ title: 'Orders could not be checked', quit: 'Quit anyway', keep: 'Keep running' });
    const ask = vi.fn(() => Promise.resolve(false));
    const quit = vi.fn();
    const guard = createQuitGuard({ inFlight: () => Promise.reject(new Error('core is restarting')), ask, labels: () => en, quit });
    const event = { preventDefault: vi.fn() };
    guard.beforeQuit(event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(ask).toHaveBeenCalledWith(expect.objectContaining({ title: 'Orders could not be checked' })));
    expect(quit).not.toHaveBeenCalled();
    expect(guard.allowed).toBe(false);
  });
});
