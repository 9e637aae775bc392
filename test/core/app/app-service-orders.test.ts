// The app service's order and vault channels against a real sandbox (automatic progress off, so each
// state is reached on purpose) over HTTPS with SQLite on disk: a card order placed through the
// channel is sent by the outbox, tracked to completed with orders.changed pushed on the way, its cards
// masked in the detail, revealed and copied with audit rows; a top-up gets its verification code; one
// order is cancelled and another refunded; merchant refusals arrive with their code. No key, code or
// card number reaches a log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';
import { createAppService } from '../../../src/core/app/app-service';
import type { Catalog} from '../../support/orders-harness';
import { goodCard, isOpen, isTopup, must, validEntries, fen } from '../../support/orders-harness';
import { openConnectedApp, orderDetailWhen, expectContractShapes, expectNoSecretLeft, expectRefused, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };
const revealed: string[] = [];
const CODE = '482913';

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE));
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const detailWhen = (ref: string, what: string, predicate: (d: OrderDetail) => boolean): Promise<OrderDetail> => orderDetailWhen(kit, ref, what, predicate);

async function placeCard(units: number): Promise<string> {
  const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units, unitPriceFen: fen(pick.variant.price) });
  expect(['queued', 'sending', 'accepted']).toContain(placed.intentStatus);
  await detailWhen(placed.clientOrderRef, 'the order to be accepted', (d) => d.intentStatus === 'accepted' && d.state === 'pending');
  return placed.clientOrderRef;
}

describe('app service: orders and vault', () => {
  it('places a card order, pushes orders.changed, and shows it completed with masked cards', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const template = await kit.ok('orders.template', { productRef: pick.product.productRef, variantRef });
    expect(template).toMatchObject({ productRef: pick.product.productRef, productType: 'card', entryMode: 'none' });

    const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 2, unitPriceFen: fen(pick.variant.price) });
    const ref = placed.clientOrderRef;
    expect(placed).toMatchObject({ productRef: pick.product.productRef, units: 2, cards: [] });
    await detailWhen(ref, 'acceptance', (d) => d.intentStatus === 'accepted');
    await merchant.advance(ref, 'processing');
    await merchant.advance(ref, 'completed');
    const done = await detailWhen(ref, 'the tracker to see it completed', (d) => d.state === 'completed' && d.cards.length === 2);
    expect(done.totalFen).toBeGreaterThan(0);
    expect(done.productName).not.toBeNull();
    expect(done.allowedActions).toContain('refund');
    for (const card of done.cards) expect(card.cardNoMasked).toMatch(/^•+/);

    const changed = kit.events.filter((e) => e.event === 'orders.changed' && (e.payload as { clientOrderRefs: string[] }).clientOrderRefs.includes(ref));
    expect(changed.length).toBeGreaterThanOrEqual(2);
    await waitFor('the notifications', () =>
      ['orderCompleted', 'credentialsReady'].every((kind) => kit.events.some((e) => e.event === 'app.notification' && (e.payload as { kind: string; clientOrderRef?: string }).kind === kind && (e.payload as { clientOrderRef?: string }).clientOrderRef === ref)),
    );
    // Worded with the merchant's order number, never the internal ref (which is carried only for a click).
    const notes = kit.events.filter((e) => e.event === 'app.notification' && (e.payload as { clientOrderRef?: string }).clientOrderRef === ref).map((e) => e.payload as { platformOrderRef?: string | null; body: string });
    for (const note of notes) {
      expect(note.platformOrderRef).toBe(done.platformOrderRef);
      expect(note.body).toContain(must(done.platformOrderRef, 'merchant order number'));
      expect(note.body).not.toContain(ref);
    }
    const rows = await kit.ok('orders.list', { state: 'completed' });
    expect(rows.map((r) => r.clientOrderRef)).toContain(ref);
    expect(await kit.ok('orders.list', { intentStatus: 'withdrawn' })).toEqual([]);

    // Reveal: the plain text, audited.
    const masked = await kit.ok('vault.cards', { clientOrderRef: ref });
    expect(masked).toEqual(done.cards);
    const first = must(masked[0], 'a card');
    const card = await kit.ok('vault.reveal', { clientOrderRef: ref, seq: first.seq });
    revealed.push(card.cardNo, ...(card.cardPassword === null ? [] : [card.cardPassword]));
    expect(first.cardNoMasked.endsWith(card.cardNo.slice(-4))).toBe(true);
    const audit = () => kit.core.db.prepare<[], { action: string; subject: string; detail: string | null }>('SELECT action, subject, detail FROM audit_log ORDER BY id').all();
    // Named as the vault names it: the merchant's order number and #1 for the first card, never the internal ref.
    const cardName = `${must(done.platformOrderRef, 'the merchant order number')} #${first.seq + 1}`;
    const facts = (more: object) => JSON.stringify({ v: 1, subject: { kind: 'card', card: { order: { platformOrderRef: done.platformOrderRef, productName: done.productName, productRef: done.productRef }, seq: first.seq } }, ...more });
    expect(audit()).toEqual([{ action: 'reveal', subject: cardName, detail: facts({}) }]);
    expectRefused(await kit.call('vault.reveal', { clientOrderRef: ref, seq: 99 }), 'NOT_FOUND');

    // Copy: to the host's clipboard (30 s), audited as copy, never in the answer.
    const copied = await kit.ok('vault.copy', { clientOrderRef: ref, seq: first.seq, field: 'cardNo' });
    expect(copied).toEqual({ clearsInSeconds: 30 });
    expect(kit.host.clipboard.at(-1)).toEqual({ text: card.cardNo, clearAfterMs: 30_000 });
    // One row per action: the reveal above, then this copy (named as a copy of the card number, not a second reveal).
    expect(audit()).toEqual([
      { action: 'reveal', subject: cardName, detail: facts({}) },
      { action: 'copy', subject: cardName, detail: facts({ copied: 'cardNo' }) },
    ]);
    expect(JSON.stringify(audit())).not.toContain(ref);
    const noClipboard = createAppService(kit.core, { startDemoMerchant: () => Promise.reject(new Error('no demo here')) });
    const refused = expectRefused(await noClipboard.handle('vault.copy', { clientOrderRef: ref, seq: first.seq, field: 'cardNo' }), 'INTERNAL');
    expect(refused.message).toBe('clipboard not available in this host');
  });

  it('submits a verification code through the channel, only while the order asks for one', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'needsVerification' && v.entryMode === 'single', 'top-up needing verification');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const template = await kit.ok('orders.template', { productRef: pick.product.productRef, variantRef });
    expect(template.entryMode).toBe('single');
    expect(template.purchaseFields.length).toBeGreaterThan(0);

    const bad = expectRefused(await kit.call('orders.place', { productRef: pick.product.productRef, variantRef, units: template.unitRule.min, purchaseEntries: [], unitPriceFen: fen(pick.variant.price) }), 'INVALID_INPUT');
    expect(bad.fields?.map((f) => f.path)).toContain('purchaseEntries');

    const entries = validEntries(template, template.unitRule.min);
    const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: template.unitRule.min, purchaseEntries: entries, unitPriceFen: fen(pick.variant.price) });
    const ref = placed.clientOrderRef;
    await detailWhen(ref, 'acceptance', (d) => d.intentStatus === 'accepted');
    expectRefused(await kit.call('orders.submitVerificationCode', { clientOrderRef: ref, code: CODE }), 'ACTION_NOT_ALLOWED');
    await merchant.advance(ref, 'processing');
    await merchant.advance(ref, 'verifying');
    await detailWhen(ref, 'the verifying state', (d) => d.state === 'verifying' && d.allowedActions.includes('verificationCode'));
    const after = await kit.ok('orders.submitVerificationCode', { clientOrderRef: ref, code: CODE });
    expect(after.state).toBe('processing');
    expect(after.allowedActions).not.toContain('verificationCode');
    expectRefused(await kit.call('orders.submitVerificationCode', { clientOrderRef: ref, code: CODE }), 'ACTION_NOT_ALLOWED');
    for (const group of entries) revealed.push(...Object.values(group));
  });

  it('cancels a pending order through the channel', async () => {
    const ref = await placeCard(1);
    const cancelled = await kit.ok('orders.cancel', { clientOrderRef: ref, reason: 'changed my mind' });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.allowedActions).toEqual([]);
    expect(cancelled.refundedFen).toBe(cancelled.totalFen);
    expectRefused(await kit.call('orders.cancel', { clientOrderRef: ref }), 'ACTION_NOT_ALLOWED');
    // The merchant has it (cancelled): nothing to withdraw, and the answer says so.
    expect(await kit.ok('orders.withdraw', { clientOrderRef: ref })).toMatchObject({ outcome: 'merchantHasOrder', order: { intentStatus: 'accepted', state: 'cancelled' } });
  });

  it('refunds a completed order; a refund the merchant refuses comes back with its code', async () => {
    const ref = await placeCard(2);
    expectRefused(await kit.call('orders.requestRefund', { clientOrderRef: ref, reason: 'too early' }), 'ACTION_NOT_ALLOWED');
    await merchant.advance(ref, 'processing');
    await merchant.advance(ref, 'completed');
    const completed = await detailWhen(ref, 'completion', (d) => d.state === 'completed' && d.allowedActions.includes('refund'));

    const tooMuch = expectRefused(await kit.call('orders.requestRefund', { clientOrderRef: ref, amountFen: (completed.totalFen ?? 0) + 100_000, reason: 'all of it and more' }), 'MERCHANT_REFUSED');
    expect(tooMuch.merchantCode).toBeGreaterThanOrEqual(400000);
    expect(typeof tooMuch.requestId).toBe('string');
    // The refused request is named with the merchant's code (worded by the screen), and is not pending.
    const refused = await kit.ok('orders.get', { clientOrderRef: ref });
    expect(refused.refunds).toContainEqual(expect.objectContaining({ state: 'rejected', requestErrorCode: String(tooMuch.merchantCode), merchantNote: null }));
    expect(refused.refundPendingFen).toBe(0);

    const requested = await kit.ok('orders.requestRefund', { clientOrderRef: ref, amountFen: 100, reason: 'one card did not work' });
    expect(requested.refunds).toContainEqual(expect.objectContaining({ amountFen: 100, state: 'pending', reason: 'one card did not work' }));
    // The list says it too: a refund in progress, nothing back yet.
    const listed = (await kit.ok('orders.list', {})).find((row) => row.clientOrderRef === ref);
    expect(listed).toMatchObject({ refundPendingFen: 100, refundedFen: 0, refundUnknownStates: [] });
    await merchant.advance(ref, 'refund.succeeded');
    const refunded = await detailWhen(ref, 'the refund to succeed', (d) => d.refundedFen === 100);
    expect(refunded.refundPendingFen).toBe(0);
    expect((await kit.ok('orders.list', {})).find((row) => row.clientOrderRef === ref)).toMatchObject({ refundPendingFen: 0, refundedFen: 100, totalFen: completed.totalFen });
    expect(refunded.refunds).toContainEqual(expect.objectContaining({ amountFen: 100, state: 'succeeded' }));
    expect(refunded.refunds.filter((r) => r.refundRef !== null)).toHaveLength(1);
  });

  it('an order the merchant rejects (balance too low) shows its code; nothing is thrown', async () => {
    await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: '0.01' });
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price) });
    const rejected = await detailWhen(placed.clientOrderRef, 'the rejection', (d) => d.intentStatus === 'rejected');
    expect(rejected.lastErrorCode).toMatch(/^\d{6}$/);
    expect(rejected.lastRequestId).not.toBeNull();
    await waitFor('the low-balance notice', () => kit.events.some((e) => e.event === 'app.notification' && (e.payload as { kind: string }).kind === 'lowBalance') || null);
    await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: '100000' });
  });

  it('answered only contract-shaped results and events; no key, code, entry or card number in the log', () => {
    expectContractShapes(kit);
    expectNoSecretLeft(kit, kit.secrets);
    const log = kit.logLines.join('\n');
    expect(log).not.toContain(CODE);
    for (const secret of revealed) expect(log.includes(secret), 'a card or entry value in the log').toBe(false);
  });
});
