// The message outbox against the sandbox over HTTPS with SQLite on disk. Whatever happens to the
// requests, each message the buyer typed ends up exactly once at the merchant and exactly once in the
// chat, and its ref and content never change:
// - its row (with its clientMessageRef) exists before the first request; the answer shows it pending;
//   once sent, the merchant's copy takes its place (one message, with the merchant's messageRef);
// - connections dropped after the merchant stored it, 500s before it was stored, and 500s after it was
//   stored: retrying (visible, with the reason and the next attempt), then sent once;
// - typed while the merchant is unreachable: queued in order (a later one never overtakes), sent once
//   each when it is back;
// - a quit with a message waiting, and a crash while a request was on its way (the merchant had it):
//   after the restart, sent once, the merchant's original kept;
// - a case the merchant closed: a message already queued is refused (409104, failed, with the reason)
//   and new ones are refused before anything is sent, in words.
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseMessageView } from '../../../src/shared/ipc/views/aftersales';
import { TransportError } from '../../../src/core/merchant/http-port';
import { Catalog, must } from '../../support/orders-harness';
import {
  createAftersaleKit,
  expectCleanRun,
  expectRefused,
  isGetCase,
  isPostMessage,
  merchantApi,
  merchantCase,
  merchantReplies,
  startMerchant,
  waitFor,
  type AftersaleKit,
  type Merchant,
} from './aftersale-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AftersaleKit;
let catalog: Catalog;

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE, autoAdvance: false });
  catalog = new Catalog(await merchant.products());
  kit = await createAftersaleKit(merchant, { scale: SCALE, requestTimeoutMs: 5_000 });
}, 90_000);

afterAll(async () => {
  await kit?.faults({ dropRate: 0, errorRate: 0 }).catch(() => undefined);
  await kit?.close();
  await merchant?.stop();
});

interface OutboxRow {
  status: string;
  attempts: number;
  last_error_code: string | null;
  message_ref: string | null;
}

const outboxRow = (db: Database, ref: string): OutboxRow | undefined =>
  db.prepare<[string], OutboxRow>('SELECT status, attempts, last_error_code, message_ref FROM aftersale_outbox WHERE client_message_ref = ?').get(ref);

async function openCase(description: string): Promise<string> {
  const order = await kit.completedCardOrder(catalog);
  return (await kit.ok('aftersales.open', { clientOrderRef: order, category: 'cardInvalid', description, images: [] })).platformCaseRef;
}

/** Queues a message through the channel; answers its clientMessageRef (the newest buyer row of the answer). */
async function send(caseRef: string, text: string, images: string[] = []): Promise<{ ref: string; shown: CaseMessageView }> {
  const detail = await kit.ok('aftersales.send', { platformCaseRef: caseRef, text, images });
  const shown = must(detail.messages.filter((m) => m.sender === 'buyer').at(-1), 'the queued message');
  return { ref: must(shown.clientMessageRef, 'its clientMessageRef'), shown };
}

/** The case as the chat shows it once `ref` is sent and the merchant's copy is in. */
async function delivered(caseRef: string, ref: string): Promise<CaseMessageView[]> {
  const detail = await kit.caseWhen(caseRef, `message ${ref} delivered`, (d) => d.messages.some((m) => m.clientMessageRef === ref && m.delivery === 'sent' && m.key === m.messageRef));
  return detail.messages.filter((m) => m.clientMessageRef === ref);
}

async function expectOnceAtMerchant(caseRef: string, ref: string, text: string): Promise<string> {
  const atMerchant = (await merchantCase(kit, caseRef)).messages.filter((m) => m.clientMessageRef === ref);
  expect(atMerchant).toHaveLength(1);
  expect(atMerchant[0]?.text).toBe(text);
  return must(atMerchant[0]?.messageRef, 'merchant messageRef');
}

/** Every POST of this message carried the same body (same ref, same content). */
function expectSameBodies(ref: string, atLeast: number): void {
  const bodies = kit.requests.filter((r) => isPostMessage(r) && r.body?.includes(ref) === true).map((r) => r.body);
  expect(bodies.length).toBeGreaterThanOrEqual(atLeast);
  expect(new Set(bodies).size).toBe(1);
}

describe('the message outbox', () => {
  it('stores the message before the first send, shows it pending, then once as the merchant’s', async () => {
    const caseRef = await openCase('卡密无效');
    let seenBeforeSend: OutboxRow | undefined;
    kit.intercept = (request, forward) => {
      const ref = request.body === undefined ? null : /"clientMessageRef":"([^"]+)"/.exec(request.body)?.[1];
      if (ref !== undefined && ref !== null) seenBeforeSend ??= outboxRow(kit.core.db, ref);
      return forward(request);
    };
    try {
      const { ref, shown } = await send(caseRef, '  请尽快处理，谢谢  ', ['https://img.example.com/proof.png']);
      expect(ref).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(shown).toMatchObject({ key: ref, messageRef: null, sender: 'buyer', text: '请尽快处理，谢谢', images: ['https://img.example.com/proof.png'], delivery: 'pending', lastError: null });
      const messages = await delivered(caseRef, ref);
      expect(messages).toHaveLength(1);
      expect(seenBeforeSend).toMatchObject({ status: 'sending', attempts: 1 });
      const messageRef = await expectOnceAtMerchant(caseRef, ref, '请尽快处理，谢谢');
      expect(messages[0]?.messageRef).toBe(messageRef);
      expect(outboxRow(kit.core.db, ref)).toMatchObject({ status: 'sent', message_ref: messageRef });
      const row = must((await kit.ok('aftersales.list', {})).find((r) => r.platformCaseRef === caseRef), 'case row');
      expect(row).toMatchObject({ unsent: 0, lastMessagePreview: '请尽快处理，谢谢' });
    } finally {
      kit.intercept = null;
    }
  });

  it('sends once through connections dropped after the merchant stored the message', async () => {
    const caseRef = await openCase('连接中断');
    await kit.faults({ dropRate: 1 });
    let ref: string;
    try {
      ({ ref } = await send(caseRef, '第一条：连接被断开'));
      const retrying = await kit.caseWhen(caseRef, 'the message to be retrying', (d) => d.messages.some((m) => m.clientMessageRef === ref && m.delivery === 'retrying'));
      const shown = must(retrying.messages.find((m) => m.clientMessageRef === ref), 'shown');
      // Cut off after the merchant stored it (on a loaded machine possibly a timeout first): retried the same way.
      expect(shown.lastErrorCode).toMatch(/^(TRANSPORT|TIMEOUT)$/);
      expect(shown.lastError).toMatch(/^the merchant (could not be reached|did not answer in time)$/);
      expect(shown.nextAttemptAt).not.toBeNull();
      expect(must((await kit.ok('aftersales.list', {})).find((r) => r.platformCaseRef === caseRef), 'row').unsent).toBe(1);
    } finally {
      await kit.faults({ dropRate: 0 });
    }
    expect(await delivered(caseRef, ref)).toHaveLength(1);
    await expectOnceAtMerchant(caseRef, ref, '第一条：连接被断开');
    expectSameBodies(ref, 2);
  });

  it('sends once through 500s before the merchant stored it, and 500s after it did', async () => {
    const caseRef = await openCase('商户故障');
    // Before: the merchant answers 500 without doing anything.
    await kit.faults({ errorRate: 1, errorStatus: 500 });
    let before: string;
    try {
      ({ ref: before } = await send(caseRef, '500 之前'));
      await waitFor('retrying after 500', () => outboxRow(kit.core.db, before)?.status === 'retrying');
      // The merchant's 500 (on a loaded machine an attempt may time out first: retried the same way).
      expect(outboxRow(kit.core.db, before)?.last_error_code).toMatch(/^(500001|TIMEOUT)$/);
    } finally {
      await kit.faults({ errorRate: 0 });
    }
    expect(await delivered(caseRef, before)).toHaveLength(1);
    await expectOnceAtMerchant(caseRef, before, '500 之前');
    expectSameBodies(before, 2);

    // After: the merchant stores it, then the answer is replaced by a 500.
    let failing = true;
    kit.intercept = async (request, forward) => {
      const response = await forward(request);
      if (!failing || !/\/messages$/.test(request.url)) return response;
      return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 500001, message: 'internal error', data: null, requestId: `req_${'0'.repeat(24)}` }) };
    };
    let after: string;
    try {
      ({ ref: after } = await send(caseRef, '500 之后'));
      await waitFor('retrying after a 500 that came after storing', () => outboxRow(kit.core.db, after)?.status === 'retrying');
      const stored = await expectOnceAtMerchant(caseRef, after, '500 之后');
      failing = false;
      expect(await delivered(caseRef, after)).toHaveLength(1);
      expect(outboxRow(kit.core.db, after)?.message_ref).toBe(stored);
    } finally {
      kit.intercept = null;
    }
    await expectOnceAtMerchant(caseRef, after, '500 之后');
    expectSameBodies(after, 2);
  });

  it('keeps messages typed offline in order and sends each once when the merchant is back', async () => {
    const caseRef = await openCase('离线');
    kit.offline = true;
    let first: string;
    let second: string;
    try {
      ({ ref: first } = await send(caseRef, '离线时写的第一条'));
      ({ ref: second } = await send(caseRef, '离线时写的第二条'));
      await waitFor('the first to be retrying', () => outboxRow(kit.core.db, first)?.status === 'retrying');
      // The second waits behind the first: never sent before it.
      expect(outboxRow(kit.core.db, second)).toMatchObject({ status: 'queued', attempts: 0 });
      expect(kit.requests.some((r) => isPostMessage(r) && r.body?.includes(second) === true)).toBe(false);
      const detail = await kit.ok('aftersales.get', { platformCaseRef: caseRef });
      expect(detail.messages.filter((m) => m.sender === 'buyer').map((m) => [m.text, m.delivery])).toEqual([
        ['离线时写的第一条', 'retrying'],
        ['离线时写的第二条', 'pending'],
      ]);
      expect(detail.unsent).toBe(2);
    } finally {
      kit.offline = false;
    }
    await delivered(caseRef, first);
    await delivered(caseRef, second);
    const atMerchant = (await merchantCase(kit, caseRef)).messages.filter((m) => m.sender === 'buyer');
    expect(atMerchant.map((m) => m.clientMessageRef)).toEqual([first, second]);
    const chat = await kit.ok('aftersales.get', { platformCaseRef: caseRef });
    expect(chat.messages.filter((m) => m.sender === 'buyer').map((m) => m.text)).toEqual(['离线时写的第一条', '离线时写的第二条']);
  });

  it('sends a message left waiting by a quit, and one interrupted mid-send by a crash, once each after the restart', async () => {
    const caseRef = await openCase('重启');
    kit.offline = true;
    const { ref: waiting } = await send(caseRef, '退出前排队的');
    const { ref: interrupted } = await send(caseRef, '发送途中崩溃的');
    await waitFor('the first to be retrying', () => outboxRow(kit.core.db, waiting)?.status === 'retrying');
    // The crash: the second message's request reached the merchant, the app died before the answer.
    await merchantApi(kit, 'POST', `/aftersales/${caseRef}/messages`, { clientMessageRef: interrupted, text: '发送途中崩溃的' });
    const original = await expectOnceAtMerchant(caseRef, interrupted, '发送途中崩溃的');
    await kit.restart((core) => {
      // The app is down: the merchant is reachable again for the next run, and the row is left as the crash left it.
      kit.offline = false;
      expect(outboxRow(core.db, interrupted)).toMatchObject({ status: 'queued', attempts: 0 });
      core.db.prepare("UPDATE aftersale_outbox SET status = 'sending', attempts = 1 WHERE client_message_ref = ?").run(interrupted);
    });
    await delivered(caseRef, waiting);
    expect(await delivered(caseRef, interrupted)).toHaveLength(1);
    await expectOnceAtMerchant(caseRef, waiting, '退出前排队的');
    expect(await expectOnceAtMerchant(caseRef, interrupted, '发送途中崩溃的')).toBe(original);
    expect(outboxRow(kit.core.db, interrupted)?.message_ref).toBe(original);
  });

  it('refuses messages on a closed case: a queued one fails with the reason, new ones are refused in words', async () => {
    const caseRef = await openCase('关闭');
    // The app does not hear of the close before its message goes (its reads of the case are held back).
    let holdReads = true;
    kit.intercept = (request, forward) => {
      if (holdReads && request.method === 'GET' && /\/aftersales\/[^/]+$/.test(request.url)) return Promise.reject(new TransportError('connection', 'held back by the test'));
      return forward(request);
    };
    try {
      await merchantReplies(kit, caseRef, '本工单已关闭', 'closed');
      const { ref } = await send(caseRef, '关闭之后才发的');
      await waitFor('the message to fail', () => outboxRow(kit.core.db, ref)?.status === 'failed');
      expect(outboxRow(kit.core.db, ref)?.last_error_code).toBe('409104');
      holdReads = false;
      const detail = await kit.ok('aftersales.refresh', { platformCaseRef: caseRef });
      expect(detail).toMatchObject({ state: 'closed', allowedActions: [] });
      const shown = must(detail.messages.find((m) => m.clientMessageRef === ref), 'the failed message');
      expect(shown).toMatchObject({ delivery: 'failed', lastErrorCode: '409104', lastError: 'the case is closed: the merchant takes no more messages on it', nextAttemptAt: null });
      expect((await merchantCase(kit, caseRef)).messages.some((m) => m.clientMessageRef === ref)).toBe(false);
      const posts = kit.requests.filter(isPostMessage).length;
      const refused = expectRefused(await kit.call('aftersales.send', { platformCaseRef: caseRef, text: '还能发吗？', images: [] }), 'ACTION_NOT_ALLOWED');
      expect(refused.message).toBe(`case ${caseRef} is closed: the merchant takes no more messages on it`);
      expect(kit.requests.filter(isPostMessage)).toHaveLength(posts);
      expect(await kit.ok('aftersales.list', { state: 'done' })).toEqual(expect.arrayContaining([expect.objectContaining({ platformCaseRef: caseRef, state: 'closed' })]));
    } finally {
      kit.intercept = null;
    }
    expect(kit.requests.some(isGetCase)).toBe(true);
    expectCleanRun(kit);
  });
});
