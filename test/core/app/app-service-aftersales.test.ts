// The seven aftersales.* channels of the app service (the handlers), against a sandbox over HTTPS
// with SQLite on disk: every input is checked against the contract before core sees it (INVALID_INPUT
// with the field, nothing sent); the store's reads (list, get, unread, markRead) answer without a
// connection while merchant work answers NOT_CONNECTED; and core's and the merchant's failures arrive
// as the contract's errors: core's field problems, NOT_FOUND, ACTION_NOT_ALLOWED, the merchant's code
// and requestId (MERCHANT_REFUSED), MERCHANT_UNREACHABLE. An unknown case state is kept raw and is
// never taken for done. Every answer and event fits the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { casesDueForPoll } from '../../../src/core/aftersales/tracking-store';
import type { Core } from '../../../src/core/create-core';
import { Catalog } from '../../support/orders-harness';
import { createAftersaleKit, expectCleanRun, expectRefused, waitFor, type AftersaleKit } from '../aftersales/aftersale-kit';
import { startMerchant, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AftersaleKit;
let catalog: Catalog;

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE, autoAdvance: false });
  catalog = new Catalog(await merchant.products());
  kit = await createAftersaleKit(merchant, { scale: SCALE, connect: false, requestTimeoutMs: 2_000 });
}, 90_000);

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

/** A case as webhooks could have left it before the chat existed: stored, never seen by this app's chat. */
function storeCase(core: Core, ref: string, state: string, orderRef = 'o_elsewhere'): void {
  core.db
    .prepare(
      `INSERT INTO aftersale_cases (platform_case_ref, client_order_ref, platform_order_ref, category, description, images_json, state,
         allowed_actions_json, created_at, updated_at, fetched_at) VALUES (?, ?, 'P1', 'escalation', '别处提交的', '[]', ?, '["message"]', 100, 200, 300)`,
    )
    .run(ref, orderRef, state);
  core.db
    .prepare(
      `INSERT INTO aftersale_messages (message_ref, platform_case_ref, client_message_ref, sender, text, images_json, created_at, position, received_at)
       VALUES (?, ?, NULL, 'merchant', '请稍候', '[]', 150, 0, 300)`,
    )
    .run(`MSG_${ref}`, ref);
}

describe('aftersales.* channels', () => {
  it('answers reads from the store before connecting; merchant work answers NOT_CONNECTED', async () => {
    expect(await kit.ok('aftersales.list', {})).toEqual([]);
    expect(await kit.ok('aftersales.unread')).toEqual({ total: 0, byOrder: [] });
    expectRefused(await kit.call('aftersales.get', { platformCaseRef: 'AS_nope' }), 'NOT_FOUND');
    expectRefused(await kit.call('aftersales.markRead', { platformCaseRef: 'AS_nope' }), 'NOT_FOUND');
    expectRefused(await kit.call('aftersales.refresh', { platformCaseRef: 'AS_nope' }), 'NOT_FOUND');
    expectRefused(await kit.call('aftersales.send', { platformCaseRef: 'AS_nope', text: 'hi', images: [] }), 'NOT_FOUND');
    expectRefused(await kit.call('aftersales.open', { clientOrderRef: 'o_1', category: 'other', description: 'x', images: [] }), 'NOT_CONNECTED');

    // A case in a state this build does not know: kept raw, listed as active (never done), still polled.
    storeCase(kit.core, 'AS_UNKNOWN_STATE', 'escalated');
    const [row] = await kit.ok('aftersales.list', { state: 'active' });
    expect(row).toMatchObject({ platformCaseRef: 'AS_UNKNOWN_STATE', state: 'escalated', category: 'escalation', unread: 1, unsent: 0, productName: null, lastMessagePreview: '请稍候' });
    expect(await kit.ok('aftersales.list', { state: 'done' })).toEqual([]);
    expect(await kit.ok('aftersales.list', { state: 'escalated' })).toHaveLength(1);
    expect(casesDueForPoll(kit.core.db, 1_000, 10)).toEqual(['AS_UNKNOWN_STATE']);
    expect(await kit.ok('aftersales.unread')).toEqual({ total: 1, byOrder: [{ clientOrderRef: 'o_elsewhere', platformCaseRef: 'AS_UNKNOWN_STATE', unread: 1 }] });
    const detail = await kit.ok('aftersales.get', { platformCaseRef: 'AS_UNKNOWN_STATE' });
    expect(detail.messages).toEqual([
      expect.objectContaining({ key: 'MSG_AS_UNKNOWN_STATE', sender: 'merchant', text: '请稍候', delivery: 'sent', lastError: null, lastErrorCode: null }),
    ]);
    expectRefused(await kit.call('aftersales.send', { platformCaseRef: 'AS_UNKNOWN_STATE', text: 'hi', images: [] }), 'NOT_CONNECTED');
    expectRefused(await kit.call('aftersales.refresh', { platformCaseRef: 'AS_UNKNOWN_STATE' }), 'NOT_CONNECTED');
    // Reading needs no merchant.
    expect(await kit.ok('aftersales.markRead', { platformCaseRef: 'AS_UNKNOWN_STATE' })).toMatchObject({ unread: 0 });
    expect((await kit.ok('aftersales.unread')).total).toBe(0);
    expect(kit.requests).toEqual([]);
  });

  it('checks every channel’s input against the contract before core sees it', async () => {
    const bad: [string, unknown, string][] = [
      ['aftersales.list', { state: 7 }, 'state'],
      ['aftersales.list', { clientOrderRef: 'no spaces allowed' }, 'clientOrderRef'],
      ['aftersales.list', { unreadOnly: 'yes' }, 'unreadOnly'],
      ['aftersales.get', { platformCaseRef: '' }, 'platformCaseRef'],
      ['aftersales.refresh', {}, 'platformCaseRef'],
      ['aftersales.open', { clientOrderRef: 'o_1', category: 'angry', description: 'x', images: [] }, 'category'],
      ['aftersales.open', { clientOrderRef: 'o_1', category: 'other', description: 'x'.repeat(1001), images: [] }, 'description'],
      ['aftersales.open', { clientOrderRef: 'o_1', category: 'other', description: 'x', images: ['https://a.example.com/1.png', '2', '3', '4', '5', '6'] }, 'images'],
      ['aftersales.open', { clientOrderRef: 'o_1', category: 'other', description: 'x' }, 'images'],
      ['aftersales.send', { platformCaseRef: 'AS_UNKNOWN_STATE', text: 'x'.repeat(2001), images: [] }, 'text'],
      ['aftersales.send', { platformCaseRef: 'AS_UNKNOWN_STATE', text: 'hi', images: [`https://a.example.com/${'a'.repeat(2048)}.png`] }, 'images.0'],
      ['aftersales.markRead', { platformCaseRef: 42 }, 'platformCaseRef'],
      ['aftersales.unread', { all: true }, ''],
    ];
    for (const [channel, input, path] of bad) {
      const error = expectRefused(await kit.call(channel, input), 'INVALID_INPUT');
      expect(error.message).toBe(`the request for ${channel} does not match the contract`);
      expect(error.fields?.map((f) => f.path), `${channel} ${JSON.stringify(input).slice(0, 80)}`).toContain(path);
    }
    expect(kit.requests).toEqual([]);
  });

  it('maps core’s and the merchant’s failures to the contract’s errors once connected', async () => {
    await kit.connect();
    const order = await kit.completedCardOrder(catalog);

    // Core's own rules, field by field (the contract's bounds let these through).
    const badCase = expectRefused(await kit.call('aftersales.open', { clientOrderRef: order, category: 'other', description: '   ', images: ['https://10.0.0.8/a.png'] }), 'INVALID_INPUT');
    expect(badCase.message).toBe("the case does not fit the merchant's rules");
    expect(badCase.fields).toEqual([
      { path: 'description', message: 'describe the problem' },
      { path: 'images.0', message: 'an image address must name a public host (no IP address, localhost or private network name)' },
    ]);
    const opened = await kit.ok('aftersales.open', { clientOrderRef: order, category: 'other', description: '渠道测试', images: [] });
    const badMessage = expectRefused(await kit.call('aftersales.send', { platformCaseRef: opened.platformCaseRef, text: '  ', images: [] }), 'INVALID_INPUT');
    expect(badMessage.fields).toEqual([{ path: 'text', message: 'write something or add an image' }]);
    expect(await kit.ok('aftersales.get', { platformCaseRef: opened.platformCaseRef })).toMatchObject({ messages: [], unsent: 0 });

    // The merchant does not know a stored case: its code and requestId come through.
    const unknown = expectRefused(await kit.call('aftersales.refresh', { platformCaseRef: 'AS_UNKNOWN_STATE' }), 'MERCHANT_REFUSED');
    expect(unknown.merchantCode).toBe(404003);
    expect(unknown.requestId).toMatch(/^req_[0-9a-f]{24}$/);

    // Unreachable: a refresh says so; a create is kept and finished once the merchant is back.
    const second = await kit.completedCardOrder(catalog);
    kit.offline = true;
    try {
      expectRefused(await kit.call('aftersales.refresh', { platformCaseRef: opened.platformCaseRef }), 'MERCHANT_UNREACHABLE');
      const pending = expectRefused(await kit.call('aftersales.open', { clientOrderRef: second, category: 'cardInvalid', description: '离线提交', images: [] }), 'MERCHANT_UNREACHABLE');
      expect(pending.message).toContain('The app sends the same request again until it knows');
    } finally {
      kit.offline = false;
    }
    await waitFor('the case opened in the background', async () => ((await kit.ok('aftersales.list', { clientOrderRef: second })).length === 1 ? true : null), 30_000);

    // A message queued through the channel answers with it pending, and the refresh then shows it sent.
    const queued = await kit.ok('aftersales.send', { platformCaseRef: opened.platformCaseRef, text: '你好', images: [] });
    expect(queued.messages.at(-1)).toMatchObject({ sender: 'buyer', text: '你好', delivery: 'pending' });
    await kit.caseWhen(opened.platformCaseRef, 'the message sent', (d) => d.messages.at(-1)?.delivery === 'sent');
    const refreshed = await kit.ok('aftersales.refresh', { platformCaseRef: opened.platformCaseRef });
    expect(refreshed.messages.map((m) => [m.sender, m.text, m.delivery])).toEqual([['buyer', '你好', 'sent']]);
    expectCleanRun(kit);
  });
});
