// Opening a case from an order, against the sandbox over HTTPS with SQLite on disk (automatic order
// progress off, so each state is reached on purpose):
// - every rule of contract §9.1 is refused before anything is written or sent, with the field and the
//   rule named; the merchant refuses the same input too (so the app's rules are not invented);
// - a case opens from a completed order with the trimmed description and the images, the order then
//   no longer offers a second case, and the case is listed and counted by its order;
// - CASE_ACTION_NOT_ALLOWED explained: an unfinished order and an order with an open case are refused
//   locally in words (no request); a stale "allowed" in the store meets the merchant's 409104, which
//   arrives with its code and requestId; a stale "not allowed" (the merchant resolved the case) is read
//   again and the new case opens;
// - a create whose answers are all lost (connections dropped after the merchant processed it) is
//   sent again with the same content until it is known: one case at the merchant, found by the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AftersaleNotFoundError, CaseValidationError } from '../../../src/core/aftersales/aftersale-errors';
import { getOpenIntent } from '../../../src/core/aftersales/open-intent-store';
import { Catalog, fen } from '../../support/orders-harness';
import {
  createAftersaleKit,
  expectCleanRun,
  expectRefused,
  isCreateCase,
  merchantApi,
  MerchantCallError,
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
  kit = await createAftersaleKit(merchant, { scale: SCALE, requestTimeoutMs: 2_000 });
}, 90_000);

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const GOOD_IMAGE = 'https://img.example.com/proof/screenshot.png';

/** Each rule of contract §9.1 (and 7's public image URL), the field it names, and what the merchant answers to the same body. */
const BAD_INPUTS: { name: string; input: { category: string; description: string; images: string[] }; path: string; rule: string; merchantCode: number | null }[] = [
  { name: 'unknown category', input: { category: 'angry', description: '卡密无效', images: [] }, path: 'category', rule: 'CATEGORY_UNKNOWN', merchantCode: 400001 },
  { name: 'blank description', input: { category: 'cardInvalid', description: '   \n ', images: [] }, path: 'description', rule: 'REQUIRED', merchantCode: 400001 },
  { name: '501 characters', input: { category: 'cardInvalid', description: '无'.repeat(501), images: [] }, path: 'description', rule: 'TOO_LONG', merchantCode: 400001 },
  { name: 'six images', input: { category: 'other', description: 'x', images: Array.from({ length: 6 }, (_, i) => `https://img.example.com/${i}.png`) }, path: 'images', rule: 'TOO_MANY_IMAGES', merchantCode: 400001 },
  { name: 'an address of 2049 characters', input: { category: 'other', description: 'x', images: [`https://img.example.com/${'a'.repeat(2049 - 28)}.png`] }, path: 'images.0', rule: 'URL_TOO_LONG', merchantCode: 422112 },
  { name: 'not a URL', input: { category: 'other', description: 'x', images: ['screenshot.png'] }, path: 'images.0', rule: 'URL_INVALID', merchantCode: 422112 },
  { name: 'plain http', input: { category: 'other', description: 'x', images: ['http://img.example.com/a.png'] }, path: 'images.0', rule: 'NOT_HTTPS', merchantCode: 422112 },
  { name: 'credentials in the URL', input: { category: 'other', description: 'x', images: ['https://user:pw@img.example.com/a.png'] }, path: 'images.0', rule: 'CREDENTIALS_IN_URL', merchantCode: 422112 },
  { name: 'a private IP literal', input: { category: 'other', description: 'x', images: ['https://192.168.1.20/a.png'] }, path: 'images.0', rule: 'HOST_NOT_PUBLIC', merchantCode: 422112 },
  { name: 'localhost', input: { category: 'other', description: 'x', images: ['https://localhost/a.png'] }, path: 'images.0', rule: 'HOST_NOT_PUBLIC', merchantCode: 422112 },
  { name: 'a single-label host', input: { category: 'other', description: 'x', images: ['https://fileserver/a.png'] }, path: 'images.0', rule: 'HOST_NOT_PUBLIC', merchantCode: 422112 },
  // Stricter than the merchant on purpose (contract §7.1): a public image lives under a name.
  { name: 'a public IP literal', input: { category: 'other', description: 'x', images: ['https://8.8.8.8/a.png'] }, path: 'images.0', rule: 'HOST_NOT_PUBLIC', merchantCode: null },
  { name: 'not an image path', input: { category: 'other', description: 'x', images: ['https://img.example.com/page.html'] }, path: 'images.0', rule: 'NOT_AN_IMAGE', merchantCode: 422112 },
];

describe('opening an after-sales case', () => {
  it('refuses every rule before anything is written or sent; the merchant refuses the same input', async () => {
    const ref = await kit.completedCardOrder(catalog);
    const services = await kit.core.merchant();
    for (const bad of BAD_INPUTS) {
      const before = kit.requests.filter(isCreateCase).length;
      const error = await services.aftersales.open({ clientOrderRef: ref, ...bad.input }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, bad.name).toBeInstanceOf(CaseValidationError);
      const problems = error instanceof CaseValidationError ? error.problems : [];
      expect(problems.map((p) => [p.path, p.rule]), bad.name).toContainEqual([bad.path, bad.rule]);
      expect(kit.requests.filter(isCreateCase).length, `${bad.name}: nothing sent`).toBe(before);
      expect(getOpenIntent(kit.core.db, ref), `${bad.name}: nothing written`).toBeNull();
      if (bad.merchantCode !== null) {
        const refused = await merchantApi(kit, 'POST', '/aftersales', { clientOrderRef: ref, ...bad.input }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(refused instanceof MerchantCallError ? refused.code : refused, `${bad.name}: the merchant's answer`).toBe(bad.merchantCode);
      }
    }
    // Through the channel: the same field errors as INVALID_INPUT (the contract's own limits answer first for a sixth image).
    const viaChannel = expectRefused(await kit.call('aftersales.open', { clientOrderRef: ref, category: 'other', description: ' ', images: ['http://img.example.com/a.png'] }), 'INVALID_INPUT');
    expect(viaChannel.fields?.map((f) => f.path).sort()).toEqual(['description', 'images.0']);
    const tooMany = expectRefused(await kit.call('aftersales.open', { clientOrderRef: ref, category: 'other', description: 'x', images: BAD_INPUTS[3]?.input.images }), 'INVALID_INPUT');
    expect(tooMany.fields?.map((f) => f.path)).toEqual(['images']);
    expect(await kit.ok('aftersales.list', {})).toEqual([]);
  });

  it('opens a case from a completed order; the order then offers no second one', async () => {
    const ref = await kit.completedCardOrder(catalog);
    const emoji = '😀'.repeat(10);
    const description = `  卡密提示已被使用，请核实。${emoji}${'字'.repeat(500 - 14 - 10)}  `;
    const sentBefore = kit.requests.length;
    const images = [GOOD_IMAGE, ' https://cdn.example.cn/a/b.JPEG?x=1 ', '', 'https://img.example.com/c.webp', 'https://img.example.com/d.gif', 'https://img.example.com/e.bmp'];
    const opened = await kit.ok('aftersales.open', { clientOrderRef: ref, category: 'cardUsed', description, images: images.filter((i) => i !== '') });
    expect(opened).toMatchObject({
      clientOrderRef: ref,
      category: 'cardUsed',
      description: description.trim(),
      state: 'open',
      allowedActions: ['message'],
      images: [GOOD_IMAGE, 'https://cdn.example.cn/a/b.JPEG?x=1', 'https://img.example.com/c.webp', 'https://img.example.com/d.gif', 'https://img.example.com/e.bmp'],
      messages: [],
      unread: 0,
      unsent: 0,
    });
    expect(opened.productName).not.toBeNull();
    // One create; should a quota refusal (429) make the client send it again, with the same body.
    expect(new Set(kit.requests.slice(sentBefore).filter(isCreateCase).map((r) => r.body)).size).toBe(1);
    const rows = await kit.ok('aftersales.list', { state: 'active' });
    expect(rows.map((r) => r.platformCaseRef)).toEqual([opened.platformCaseRef]);
    expect(await kit.ok('aftersales.list', { state: 'done' })).toEqual([]);
    expect(await kit.ok('aftersales.unread')).toEqual({ total: 0, byOrder: [{ clientOrderRef: ref, platformCaseRef: opened.platformCaseRef, unread: 0 }] });
    // The order was read again: the merchant no longer lists `aftersale` while the case is open.
    await waitFor('the order without aftersale', async () => (!(await kit.ok('orders.get', { clientOrderRef: ref })).allowedActions.includes('aftersale') ? true : null));
    await waitFor('aftersales.changed', () => kit.events.some((e) => e.event === 'aftersales.changed' && (e.payload as { platformCaseRefs: string[] }).platformCaseRefs.includes(opened.platformCaseRef)));

    // A second case for the same order: refused in words, nothing sent.
    const sent = kit.requests.filter(isCreateCase).length;
    const again = expectRefused(await kit.call('aftersales.open', { clientOrderRef: ref, category: 'other', description: '另一个问题', images: [] }), 'ACTION_NOT_ALLOWED');
    expect(again.message).toContain(`already has an open after-sales case (${opened.platformCaseRef})`);
    expect(again.merchantCode ?? null).toBeNull();
    expect(kit.requests.filter(isCreateCase)).toHaveLength(sent);
  });

  it('explains CASE_ACTION_NOT_ALLOWED for an unfinished order, and carries the merchant’s own 409104', async () => {
    // Accepted but still pending at the merchant: its allowedActions hold no `aftersale`.
    const pick = catalog.claim((p, v) => p.productType === 'card' && v.supply === 'succeed' && p.availability === 'available' && v.availability === 'available', 'card');
    const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef: pick.product.variants.length > 1 ? pick.variant.variantRef : 0, units: 1, unitPriceFen: fen(pick.variant.price) });
    const pending = placed.clientOrderRef;
    await waitFor('acceptance', async () => ((await kit.ok('orders.get', { clientOrderRef: pending })).state === 'pending' ? true : null));
    const sent = kit.requests.filter(isCreateCase).length;
    const early = expectRefused(await kit.call('aftersales.open', { clientOrderRef: pending, category: 'notReceived', description: '还没收到', images: [] }), 'ACTION_NOT_ALLOWED');
    expect(early.message).toContain('only once it is finished; it is pending now');
    expect(kit.requests.filter(isCreateCase)).toHaveLength(sent);
    expectRefused(await kit.call('aftersales.open', { clientOrderRef: 'o_not_ours', category: 'other', description: 'x', images: [] }), 'NOT_FOUND');

    // Stored says allowed, but the merchant already has an open case (opened outside this app).
    const ref = await kit.completedCardOrder(catalog);
    await merchantApi(kit, 'POST', '/aftersales', { clientOrderRef: ref, category: 'other', description: '在商户网页上提交的' });
    const refused = expectRefused(await kit.call('aftersales.open', { clientOrderRef: ref, category: 'cardInvalid', description: '卡密无效', images: [] }), 'ACTION_NOT_ALLOWED');
    expect(refused.merchantCode).toBe(409104);
    expect(refused.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(refused.message).toContain('CASE_ACTION_NOT_ALLOWED');
    expect(getOpenIntent(kit.core.db, ref)).toBeNull();
    await waitFor('the order read again', async () => (!(await kit.ok('orders.get', { clientOrderRef: ref })).allowedActions.includes('aftersale') ? true : null));
  });

  it('reads a stale "not allowed" again: once the merchant resolved the case, a new one opens', async () => {
    const ref = await kit.completedCardOrder(catalog);
    const first = await kit.ok('aftersales.open', { clientOrderRef: ref, category: 'cardInvalid', description: '第一次', images: [] });
    await waitFor('the order without aftersale', async () => (!(await kit.ok('orders.get', { clientOrderRef: ref })).allowedActions.includes('aftersale') ? true : null));
    await merchantReplies(kit, first.platformCaseRef, '已为您处理', 'resolved');
    // The store still says no (resolving a case does not move the order's revision): core reads it again.
    const second = await kit.ok('aftersales.open', { clientOrderRef: ref, category: 'cardInvalid', description: '第二次', images: [] });
    expect(second.platformCaseRef).not.toBe(first.platformCaseRef);
    const rows = await kit.ok('aftersales.list', { clientOrderRef: ref });
    expect(rows.map((r) => r.platformCaseRef).sort()).toEqual([first.platformCaseRef, second.platformCaseRef].sort());
  });

  it('sends a create whose answers were lost again with the same content: one case, found by the app', async () => {
    const ref = await kit.completedCardOrder(catalog);
    const services = await kit.core.merchant();
    const content = { clientOrderRef: ref, category: 'notReceived', description: '充值没有到账', images: [GOOD_IMAGE] };
    await kit.faults({ dropRate: 1 });
    try {
      const pending = expectRefused(await kit.call('aftersales.open', content), 'MERCHANT_UNREACHABLE');
      expect(pending.message).toContain('may have been opened');
      expect(getOpenIntent(kit.core.db, ref)).toMatchObject({ status: 'unknown', category: 'notReceived', description: '充值没有到账', images: [GOOD_IMAGE] });
      // Every attempt reached the merchant (the answers were dropped): all carried the same body.
      const bodies = new Set(kit.requests.filter(isCreateCase).slice(-3).map((r) => r.body));
      expect(bodies.size).toBe(1);
    } finally {
      await kit.faults({ dropRate: 0 });
    }
    // The background sends it again (same content) and finds the case the first attempt opened.
    const caseRef = await waitFor('the case to be found', () => kit.core.db.prepare<[string], { ref: string }>('SELECT platform_case_ref AS ref FROM aftersale_cases WHERE client_order_ref = ?').get(ref)?.ref ?? null, 30_000);
    expect(getOpenIntent(kit.core.db, ref)).toBeNull();
    // One case at the merchant: the same create answers with it, another one is refused.
    const same = await merchantApi<{ platformCaseRef: string }>(kit, 'POST', '/aftersales', { clientOrderRef: ref, category: 'notReceived', description: '充值没有到账', images: [GOOD_IMAGE] });
    expect(same.platformCaseRef).toBe(caseRef);
    await expect(merchantApi(kit, 'POST', '/aftersales', { clientOrderRef: ref, category: 'other', description: '另一个' })).rejects.toMatchObject({ code: 409104 });
    // The buyer trying the same again is answered with that case, not refused by the stored order.
    const viaBuyer = await services.aftersales.open(content);
    expect(viaBuyer).toBe(caseRef);
  });

  it('refuses locally and in words when the case or order is unknown, and leaves no secret anywhere', async () => {
    const services = await kit.core.merchant();
    await expect(services.aftersales.open({ clientOrderRef: 'o_unknown', category: 'other', description: 'x', images: [] })).rejects.toBeInstanceOf(AftersaleNotFoundError);
    expect(() => services.aftersales.send('AS_missing', { text: 'hi', images: [] })).toThrow(AftersaleNotFoundError);
    expectCleanRun(kit);
  });
});
