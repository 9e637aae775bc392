// Actions on orders through core, with the sandbox's automatic progress off so that each state is
// reached on purpose: a top-up that needs a verification code, a cancel, and a refund that is
// recorded only from the authenticated detail (never from the action's answer or a hint), with its
// clientRefundRef stored before the first send and reused after an unknown outcome.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionNotAllowedError } from '../../../src/core/orders/order-errors';
import { getStoredOrder, listRefunds } from '../../../src/core/orders/order-store';
import { openRefundIntent } from '../../../src/core/orders/refund-intent-store';
import type {
  Catalog} from '../../support/orders-harness';
import {
  advance,
  entriesFor,
  fen,
  getOrder,
  goodCard,
  isOpen,
  isTopup,
  ledger,
  must,
  setFaults,
  type Harness,
} from '../../support/orders-harness';
import { launchManualSandboxKit, type ManualSandboxKit, type OrdersKit } from './orders-kit';

const SCALE = 20;
let h: Harness;
let kit: OrdersKit;
let catalog: Catalog;

let opened: ManualSandboxKit | undefined;

beforeAll(async () => {
  opened = await launchManualSandboxKit({ scale: SCALE, retry: { maxAttempts: 3, maxAttemptsOn500: 2, baseDelayMs: 50, maxDelayMs: 200 } });
  ({ h, kit, catalog } = opened);
});

afterAll(async () => {
  await opened?.close();
});

async function placeAccepted(productRef: number, variantRef: number, productType: string, units: number, entries?: Record<string, string>[]): Promise<string> {
  await kit.seedTemplate(productRef, variantRef, productType);
  const intent = kit.intents.placeOrder({ productRef, variantRef, units, ...(entries === undefined ? {} : { purchaseEntries: entries }) });
  await kit.outbox.runOnce();
  expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');
  return intent.clientOrderRef;
}

describe('order actions', () => {
  it('submits a verification code only while the order asks for one', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'needsVerification' && v.entryMode === 'single', 'top-up needing verification');
    const QQ_OR_MOBILE = '13912345678';
    await kit.seedTemplate(pick.product.productRef, pick.variant.variantRef, 'topup');
    const tplField = must(kit.temp.db.prepare<[number], { template_json: string }>('SELECT template_json FROM templates WHERE product_ref = ?').get(pick.product.productRef), 'template');
    const field = must((JSON.parse(tplField.template_json) as { purchaseFields: { fieldRef: string; type: string }[] }).purchaseFields[0], 'field');
    const value = field.type === 'mobile' ? QQ_OR_MOBILE : '123456789';
    const ref = await placeAccepted(pick.product.productRef, pick.variant.variantRef, 'topup', 1, [{ [field.fieldRef]: value }]);

    await expect(kit.actions.submitVerificationCode(ref, '482913')).rejects.toThrow(ActionNotAllowedError);
    await advance(h, ref, 'processing');
    await advance(h, ref, 'verifying');
    const verifying = must(await kit.tracker.refresh(ref), 'stored order');
    expect(verifying.state).toBe('verifying');
    expect(verifying.allowedActions).toEqual(expect.arrayContaining(['verificationCode', 'cancel']));

    const after = must(await kit.actions.submitVerificationCode(ref, '482913'), 'order after the code');
    expect(after.state).toBe('processing');
    expect(after.allowedActions).not.toContain('verificationCode');
    await expect(kit.actions.submitVerificationCode(ref, '482913')).rejects.toThrow(/not allowed .*processing/);
    await advance(h, ref, 'completed');
    expect((await kit.tracker.refresh(ref))?.state).toBe('completed');
    const log = kit.logLines.join('\n');
    expect(log).not.toContain('482913');
    expect(log).not.toContain(value);
    expect(kit.intents.getIntent(ref)?.purchaseEntries).toBeNull();
  });

  it('cancels a pending order and stores the merchant’s refund of it', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card');
    const ref = await placeAccepted(pick.product.productRef, pick.variant.variantRef, 'card', 1);
    const cancelled = must(await kit.actions.cancel(ref, 'changed my mind'), 'cancelled order');
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.allowedActions).toEqual([]);
    expect(cancelled.refundedFen).toBe(cancelled.totalFen);
    await expect(kit.actions.cancel(ref)).rejects.toThrow(ActionNotAllowedError);
    const book = await ledger(h, kit.account);
    expect(entriesFor(book, ref, 'charge')).toHaveLength(1);
    expect(entriesFor(book, ref, 'refund')).toHaveLength(1);
  });

  it('records a refund only from the authenticated detail, and reuses its clientRefundRef after an unknown outcome', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card');
    const ref = await placeAccepted(pick.product.productRef, pick.variant.variantRef, 'card', 2);
    await expect(kit.actions.requestRefund(ref, { reason: 'too early' })).rejects.toThrow(ActionNotAllowedError);
    expect(kit.temp.db.prepare('SELECT count(*) AS n FROM refund_intents WHERE client_order_ref = ?').get(ref)).toEqual({ n: 0 });
    await advance(h, ref, 'processing');
    await advance(h, ref, 'completed');
    const completed = must(await kit.tracker.refresh(ref), 'completed order');
    expect(completed.allowedActions).toContain('refund');
    expect(kit.vault.listCards(ref)).toHaveLength(2);

    // The request is processed but every answer is lost: the intent stays unknown, nothing recorded.
    await setFaults(h, { dropRate: 1 });
    await expect(kit.actions.requestRefund(ref, { amountFen: 100, reason: 'one card did not work' })).rejects.toThrow();
    await setFaults(h, { dropRate: 0 });
    const open = openRefundIntent(kit.temp.db, ref);
    expect(open?.status).toBe('unknown');
    expect(listRefunds(kit.temp.db, ref)).toHaveLength(0);

    // Asking again with the same content resumes the same intent: the detail shows it, nothing new is sent.
    const posts = kit.exchanges.filter((e) => e.method === 'POST' && e.url.endsWith('/refunds')).length;
    const resumed = await kit.actions.requestRefund(ref, { amountFen: 100, reason: 'one card did not work' });
    expect(resumed.clientRefundRef).toBe(open?.clientRefundRef);
    expect(resumed.status).toBe('accepted');
    expect(kit.exchanges.filter((e) => e.method === 'POST' && e.url.endsWith('/refunds')).length).toBe(posts);
    const merchant = await getOrder(h, kit.account, ref);
    expect(merchant.refunds.map((r) => r.clientRefundRef)).toEqual([open?.clientRefundRef]);

    // Pending: a hint that it "succeeded" (a forged webhook) only makes the order due; the authenticated
    // detail still says pending, so nothing is credited.
    const pending = listRefunds(kit.temp.db, ref);
    expect(pending.map((r) => r.state)).toEqual(['pending']);
    kit.tracker.nudge(ref);
    await kit.tracker.pollDue();
    expect(listRefunds(kit.temp.db, ref).map((r) => r.state)).toEqual(['pending']);
    expect(getStoredOrder(kit.temp.db, ref)?.refundedFen).toBe(0);

    await advance(h, ref, 'refund.succeeded');
    await kit.tracker.refresh(ref);
    const [done] = listRefunds(kit.temp.db, ref);
    expect(done).toMatchObject({ state: 'succeeded', amountFen: 100, clientRefundRef: open?.clientRefundRef });
    expect(getStoredOrder(kit.temp.db, ref)?.refundedFen).toBe(100);
    const book = await ledger(h, kit.account);
    expect(entriesFor(book, ref, 'refund').map((e) => fen(e.amount))).toEqual([100]);
  });
});
