// The client-side quota model against the sandbox's real limiter (contract §8), both clocks running 20
// times faster: normal work never meets a 429, and it is not slower than the quotas require. Every
// scenario uses a fresh sandbox account so that its quota windows start empty.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantApiError } from '../../../src/core/merchant/merchant-errors';
import { BURST_WINDOW_MS, GROUP_QUOTAS, MINUTE_WINDOW_MS, TOTAL_QUOTA } from '../../../src/shared/merchant-quotas';
import { control } from '../../support/merchant-http';
import type { ControlProduct } from '../../support/orders-harness';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { buildClient, countStatus, rejectionOf, type Kit } from './client-kit';

const SCALE = 20;

let sandbox: RunningSandbox;
let products: ControlProduct[];
const kits: Kit[] = [];

const uid = (prefix: string): string => `${prefix}-${randomBytes(6).toString('hex')}`;

interface Account {
  userId: string;
  apiKey: string;
}

function freshAccount(): Promise<Account> {
  return control<Account>(sandbox, 'POST', '/control/accounts', { balance: '100000' });
}

function clientFor(account: Account): Kit {
  const kit = buildClient({ baseUrl: sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, ca: sandbox.ca, scale: SCALE });
  kits.push(kit);
  return kit;
}

async function freshClient(): Promise<Kit> {
  return clientFor(await freshAccount());
}

function cheapCard(): ControlProduct {
  const found = products.find((p) => {
    const v = p.variants[0];
    return p.productType === 'card' && p.availability === 'available' && p.variants.length === 1 && v !== undefined && v.availability === 'available' && v.supply === 'succeed' && v.inventoryType === 'unlimited';
  });
  if (found === undefined) throw new Error('no unlimited single-variant card in the seeded catalog');
  return found;
}

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60', '--auto-advance', 'off', '--time-scale', String(SCALE)]);
  products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
});

afterAll(async () => {
  for (const kit of kits) kit.close();
  await sandbox?.stop();
});

describe('quotas: normal work never meets a 429', () => {
  it('150 concurrent product details: all succeed, zero 429, in about the time 120/min implies', async () => {
    const kit = await freshClient();
    // Open the agent's 16 TLS connections first (another quota group): at 20× a handshake costs
    // seconds of sandbox time, which would be measured as if it were the model's waiting.
    await Promise.all(Array.from({ length: 16 }, () => kit.client.getAccount()));
    const count = 150;
    const started = kit.clock.nowMs();
    const results = await Promise.all(Array.from({ length: count }, (_, i) => kit.client.getProduct(products[i % products.length]?.productRef ?? 1001)));
    const elapsed = kit.clock.nowMs() - started;
    expect(results).toHaveLength(count);
    expect(kit.exchanges.filter((e) => e.url.includes('/goods/'))).toHaveLength(count);
    expect(countStatus(kit.exchanges, 429)).toBe(0);
    expect(countStatus(kit.exchanges, 200)).toBe(count + 16);
    // Never faster than the quota allows: the 121st request can only be accepted once the 1st has
    // left the 60 s window, so one window is the lower bound for 121..240 requests.
    const perMinute = GROUP_QUOTAS.catalog.perMinute;
    const bound = Math.floor((count - 1) / perMinute) * MINUTE_WINDOW_MS;
    expect(elapsed).toBeGreaterThanOrEqual(bound);
    // Never slower than the model's own rule: a slot is reused one window after the answer that
    // freed it (burst: one second), not later. The answer, not the send, stamps a slot (the merchant
    // counts it somewhere in between), so each window step costs one round trip, which a 20× clock
    // magnifies; at real speed that is a few milliseconds a minute.
    const goods = kit.exchanges.filter((e) => e.url.includes('/goods/'));
    const sent = goods.map((e) => e.sentAt).sort((a, b) => a - b);
    const done = goods.map((e) => e.doneAt ?? Infinity).sort((a, b) => a - b);
    const slackMs = 3000;
    let lateBy = 0;
    for (let k = TOTAL_QUOTA.burst ?? 30; k < count; k++) {
      const byBurst = (done[k - (TOTAL_QUOTA.burst ?? 30)] ?? 0) + BURST_WINDOW_MS;
      const byMinute = k >= perMinute ? (done[k - perMinute] ?? 0) + MINUTE_WINDOW_MS : -Infinity;
      lateBy = Math.max(lateBy, (sent[k] ?? 0) - Math.max(byBurst, byMinute));
    }
    const roundTrip = Math.max(...goods.map((e) => (e.doneAt ?? e.sentAt) - e.sentAt));
    console.info(
      `150 × GET /goods/{ref}: ${Math.round(elapsed)} ms sandbox time, bound ${bound} ms, ratio ${(elapsed / bound).toFixed(3)}, ` +
        `429s ${countStatus(kit.exchanges, 429)}, slowest round trip ${Math.round(roundTrip)} ms, latest send behind the model's rule ${Math.round(lateBy)} ms`,
    );
    expect(lateBy).toBeLessThanOrEqual(slackMs);
  });

  it('a burst of 15 concurrent order creates meets no 429 (create burst 10/s)', async () => {
    const kit = await freshClient();
    const card = cheapCard();
    const refs = Array.from({ length: 15 }, () => uid('ord-burst'));
    const orders = await Promise.all(refs.map((ref) => kit.client.createOrder({ clientOrderRef: ref, productRef: card.productRef, units: 1 })));
    expect(orders.map((o) => o.data.clientOrderRef)).toEqual(refs);
    expect(countStatus(kit.exchanges, 429)).toBe(0);
    expect(kit.exchanges).toHaveLength(15);
    // The 11th create had to wait for the burst second to pass.
    const sent = kit.exchanges.map((e) => e.sentAt).sort((a, b) => a - b);
    expect((sent[10] ?? 0) - (sent[0] ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it('per-order cooldowns: a second cancel, refund or verification code waits instead of meeting a 429', async () => {
    const kit = await freshClient();
    const card = cheapCard();
    const advance = (ref: string, to: string): Promise<unknown> => control(sandbox, 'POST', `/control/orders/${ref}/advance`, { to });

    // Cancel twice: the second is refused by the order's state (409102), not by the cooldown (429111).
    const cancelRef = uid('ord-cancel');
    await kit.client.createOrder({ clientOrderRef: cancelRef, productRef: card.productRef, units: 1 });
    await kit.client.cancelOrder(cancelRef);
    const second = await rejectionOf(kit.client.cancelOrder(cancelRef));
    expect(second).toBeInstanceOf(MerchantApiError);
    if (second instanceof MerchantApiError) expect(second.code).toBe(409102);
    const cancels = kit.exchanges.filter((e) => e.url.endsWith('/cancel'));
    expect((cancels[1]?.sentAt ?? 0) - (cancels[0]?.sentAt ?? 0)).toBeGreaterThanOrEqual(10_000);

    // Two refunds on one order: the second waits its 10 s and is then refused for the pending one.
    const refundRef = uid('ord-refund');
    await kit.client.createOrder({ clientOrderRef: refundRef, productRef: card.productRef, units: 1 });
    await advance(refundRef, 'processing');
    await advance(refundRef, 'completed');
    await kit.client.requestRefund(refundRef, { clientRefundRef: uid('rf'), amountFen: 1, reason: 'first' });
    const refundAgain = await rejectionOf(kit.client.requestRefund(refundRef, { clientRefundRef: uid('rf'), amountFen: 1, reason: 'second' }));
    if (refundAgain instanceof MerchantApiError) expect(refundAgain.code).toBe(409103);
    else throw refundAgain;
    const refunds = kit.exchanges.filter((e) => e.url.endsWith('/refunds'));
    expect((refunds[1]?.sentAt ?? 0) - (refunds[0]?.sentAt ?? 0)).toBeGreaterThanOrEqual(10_000);

    // A wrong verification code, then the right one: the second waits out the 30 s cooldown.
    const topup = products.find((p) => p.productType === 'topup' && p.variants.length === 1 && p.variants[0]?.supply === 'needsVerification');
    if (topup === undefined) throw new Error('no top-up that needs verification');
    const tpl = (await kit.client.getTemplate(topup.productRef, null)).data;
    const otpRef = uid('ord-otp');
    const group = Object.fromEntries(tpl.purchaseFields.map((f) => [f.fieldRef, f.type === 'mobile' ? '13800138000' : '12345678']));
    const entries = tpl.entryMode === 'perUnit' ? Array.from({ length: tpl.unitRule.min }, () => group) : [group];
    await kit.client.createOrder({ clientOrderRef: otpRef, productRef: topup.productRef, units: tpl.unitRule.min, purchaseSchemaRevision: tpl.purchaseSchemaRevision, purchaseEntries: entries });
    await advance(otpRef, 'processing');
    await advance(otpRef, 'verifying');
    // A wrong code goes back to processing, and (auto-advance being off) we return it to verifying.
    const wrong = await kit.client.submitVerificationCode(otpRef, '000000');
    expect(wrong.data.state).toBe('processing');
    await advance(otpRef, 'verifying');
    const right = await kit.client.submitVerificationCode(otpRef, '135790');
    expect(right.data.state).toBe('processing');
    const codes = kit.exchanges.filter((e) => e.url.endsWith('/verification-code'));
    expect((codes[1]?.sentAt ?? 0) - (codes[0]?.sentAt ?? 0)).toBeGreaterThanOrEqual(30_000);

    expect(countStatus(kit.exchanges, 429)).toBe(0);
  });

  it("another client on the same account: the merchant's 429s and headers correct the model, every call succeeds", async () => {
    const account = await freshAccount();
    const other = clientFor(account);
    const ours = clientFor(account);
    // The other client spends 100 of the 120 catalog requests of this minute.
    await Promise.all(Array.from({ length: 100 }, (_, i) => other.client.getProduct(products[i % products.length]?.productRef ?? 1001)));
    expect(countStatus(other.exchanges, 429)).toBe(0);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => ours.client.getProduct(products[i % products.length]?.productRef ?? 1001)));
    expect(results).toHaveLength(40);
    const refused = countStatus(ours.exchanges, 429);
    console.info(`shared account: ${refused} × 429 met by the second client (its first burst), ${ours.exchanges.length} requests for 40 results`);
    // Refusals are bounded by the first burst (30 sent before any answer could correct the model),
    // not a storm: the Retry-After and X-RateLimit-Remaining of the answers stop further ones.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(30);
    expect(ours.exchanges).toHaveLength(40 + refused);
  });
});
