// Withdraw over real HTTPS against the sandbox, in every status an intent can be in when the buyer
// gives up: queued (also while the account is suspended, and after a create refused before any
// connection: the merchant received nothing, unlike a call an earlier attempt of which reached it),
// parked by the guard, unknown with the
// merchant answering 404002 (withdrawn, ref retired: never sent again), unknown while the merchant is
// unreachable (withdrawing, then withdrawn once it is back), unknown where the merchant has the order
// (kept as an order), and a withdraw clicked while the create is in flight (its answer decides).
// The ledger shows what the merchant charged every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Catalog} from '../../support/orders-harness';
import {
  changeProduct,
  entriesFor,
  fen,
  goodCard,
  ledger,
  setAccount,
  setFaults,
  yuanText,
  type Harness,
} from '../../support/orders-harness';
import { launchManualSandboxKit, type ManualSandboxKit, DROP_CREATE_ANSWERS, isCreate, NO_DROPS, refOfBody, type OrdersKit } from './orders-kit';

const SCALE = 20;
let h: Harness;
let kit: OrdersKit;
let catalog: Catalog;

let opened: ManualSandboxKit | undefined;

beforeAll(async () => {
  opened = await launchManualSandboxKit({ scale: SCALE, retry: { maxAttempts: 2, maxAttemptsOn500: 1, baseDelayMs: 20, maxDelayMs: 50 } });
  ({ h, kit, catalog } = opened);
});

afterAll(async () => {
  await opened?.close();
});

async function placeCard(): Promise<{ ref: string; productRef: number; variantRef: number; priceFen: number }> {
  const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
  const { productRef } = pick.product;
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  await kit.seedTemplate(productRef, variantRef, 'card');
  const priceFen = fen(pick.variant.price);
  return { ref: kit.intents.placeOrder({ productRef, variantRef, units: 1, unitPriceFen: priceFen }).clientOrderRef, productRef, variantRef, priceFen };
}

const createsFor = (ref: string): number => kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === ref).length;
/** Creates of this ref the merchant answered (the refused ones never reached it). */
const answeredCreates = (ref: string): number => kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === ref && e.status !== null).length;
const ledgerOf = async (ref: string): Promise<string[]> => entriesFor(await ledger(h, kit.account), ref).map((e) => e.kind);

/** Runs one pass in which the create request is refused at the TCP level (it never reached the merchant). */
async function sendUnheard(): Promise<void> {
  kit.onRequest = (_method, url) => {
    if (isCreate(url)) kit.offline = true;
  };
  try {
    await kit.outbox.runOnce();
  } finally {
    kit.onRequest = null;
    kit.offline = false;
  }
}

/**
 * An intent whose send outcome is not known although the merchant has nothing: the app stopped
 * while it was marked sending, before the request left (recovered as unknown at start-up).
 */
function interruptedBeforeSending(ref: string): void {
  kit.temp.db.prepare(`UPDATE order_intents SET status = 'sending', attempts = 1 WHERE client_order_ref = ?`).run(ref);
  kit.outbox.recover();
  expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'unknown', lastErrorCode: 'INTERRUPTED' });
}

/** Lets the next passes run now (an outage pauses the outbox; an unknown intent waits for its backoff). */
function dueNow(ref: string): void {
  kit.temp.db.prepare('UPDATE order_intents SET next_attempt_at = 0 WHERE client_order_ref = ?').run(ref);
  kit.outbox.poke();
}

describe('withdraw', () => {
  it('withdraws a queued intent at once, also one held back while the account is suspended, and never sends it', async () => {
    const { ref } = await placeCard();
    await setAccount(h, kit.account, { suspended: true });
    await kit.outbox.runOnce();
    // Held back as account_suspended (never retried: contract §7.9), withdrawable at once.
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'account_suspended', lastErrorCode: '403005', parkedFrom: 'queued' });
    expect(await kit.outbox.withdraw(ref)).toBe('withdrawn');
    await setAccount(h, kit.account, { suspended: false });
    dueNow(ref);
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'withdrawn', purchaseEntries: null });
    expect(createsFor(ref)).toBe(0);
    expect(await ledgerOf(ref)).toEqual([]);
    // Asking again says the same thing.
    expect(await kit.outbox.withdraw(ref)).toBe('withdrawn');
  });

  it('withdraws an intent the guard parked at once', async () => {
    const { ref, productRef, variantRef, priceFen } = await placeCard();
    await changeProduct(h, productRef, { variantRef, price: yuanText(priceFen + 100) });
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)?.status).toBe('price_changed');
    expect(await kit.outbox.withdraw(ref)).toBe('withdrawn');
    expect(() => kit.intents.confirmIntent(ref, { units: 1, unitPriceFen: priceFen + 100 })).toThrow(/withdrawn/);
    expect(createsFor(ref)).toBe(0);
    expect(await ledgerOf(ref)).toEqual([]);
  });

  it('keeps a create refused before any connection queued (the merchant received nothing), withdrawable at once', async () => {
    const { ref } = await placeCard();
    await sendUnheard();
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'queued', lastErrorCode: 'TRANSPORT' });
    expect(kit.intents.getIntent(ref)?.attempts).toBeGreaterThan(0);
    expect(answeredCreates(ref)).toBe(0);
    const tried = createsFor(ref);
    expect(await kit.outbox.withdraw(ref)).toBe('withdrawn');
    dueNow(ref);
    await kit.outbox.runOnce();
    expect(createsFor(ref)).toBe(tried);
    expect(await ledgerOf(ref)).toEqual([]);
  });

  it('keeps unknown a create whose earlier attempt reached the merchant although the retry was refused', async () => {
    const { ref, priceFen } = await placeCard();
    await setFaults(h, DROP_CREATE_ANSWERS);
    let creates = 0;
    // First attempt: processed and charged, answer lost. The retry: the merchant is gone (refused).
    kit.onRequest = (_method, url) => {
      if (isCreate(url) && ++creates === 2) kit.offline = true;
    };
    try {
      await kit.outbox.runOnce();
    } finally {
      kit.onRequest = null;
      kit.offline = false;
      await setFaults(h, NO_DROPS);
    }
    expect(creates).toBe(2);
    expect(kit.intents.getIntent(ref)?.status).toBe('unknown');
    expect(await kit.outbox.withdraw(ref)).toBe('merchantHasOrder');
    expect(entriesFor(await ledger(h, kit.account), ref).map((e) => [e.kind, fen(e.amount)])).toEqual([['charge', priceFen]]);
  });

  it('resolves an unknown outcome by GET first: 404002 → withdrawn, and the ref is never sent again', async () => {
    const { ref } = await placeCard();
    interruptedBeforeSending(ref);
    expect(await kit.outbox.withdraw(ref)).toBe('withdrawn');
    dueNow(ref);
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)?.status).toBe('withdrawn');
    expect(createsFor(ref)).toBe(0);
    expect(await ledgerOf(ref)).toEqual([]);
  });

  it('keeps an unknown outcome withdrawing while the merchant is unreachable, and withdraws it once the merchant answers 404002', async () => {
    const { ref } = await placeCard();
    interruptedBeforeSending(ref);
    kit.offline = true;
    expect(await kit.outbox.withdraw(ref)).toBe('checking');
    expect(kit.intents.getIntent(ref)?.status).toBe('withdrawing');
    dueNow(ref);
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)?.status).toBe('withdrawing');
    kit.offline = false;
    dueNow(ref);
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)?.status).toBe('withdrawn');
    expect(createsFor(ref)).toBe(0);
    expect(await ledgerOf(ref)).toEqual([]);
  });

  it('keeps as an order an unknown outcome the merchant did create, charged once', async () => {
    const { ref, priceFen } = await placeCard();
    await setFaults(h, DROP_CREATE_ANSWERS);
    await kit.outbox.runOnce();
    await setFaults(h, NO_DROPS);
    expect(kit.intents.getIntent(ref)?.status).toBe('unknown');
    expect(await kit.outbox.withdraw(ref)).toBe('merchantHasOrder');
    expect(kit.intents.getIntent(ref)?.status).toBe('accepted');
    expect(entriesFor(await ledger(h, kit.account), ref).map((e) => [e.kind, fen(e.amount)])).toEqual([['charge', priceFen]]);
  });

  it('lets the answer of a create in flight decide a withdraw clicked meanwhile: refused unheard → withdrawn; arrived → kept', async () => {
    const unheard = await placeCard();
    const click: { outcome: Promise<string> | null } = { outcome: null };
    kit.onRequest = (_method, url) => {
      if (!isCreate(url)) return;
      // The click, while the request is on its way (status sending), then the connection is refused.
      click.outcome = kit.outbox.withdraw(unheard.ref);
      kit.offline = true;
    };
    await kit.outbox.runOnce();
    kit.onRequest = null;
    kit.offline = false;
    expect(await click.outcome).toBe('checking');
    // The answer: refused before any connection, so nothing was created and the withdraw applies.
    expect(kit.intents.getIntent(unheard.ref)?.status).toBe('withdrawn');
    dueNow(unheard.ref);
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(unheard.ref)?.status).toBe('withdrawn');
    expect(answeredCreates(unheard.ref)).toBe(0);
    expect(await ledgerOf(unheard.ref)).toEqual([]);

    const arrived = await placeCard();
    const second: { outcome: Promise<string> | null } = { outcome: null };
    kit.onRequest = (_method, url) => {
      if (isCreate(url)) second.outcome = kit.outbox.withdraw(arrived.ref);
    };
    await kit.outbox.runOnce();
    kit.onRequest = null;
    expect(await second.outcome).toBe('checking');
    expect(kit.intents.getIntent(arrived.ref)?.status).toBe('accepted');
    expect(await kit.outbox.withdraw(arrived.ref)).toBe('merchantHasOrder');
    expect(await ledgerOf(arrived.ref)).toEqual(['charge']);
    expect(createsFor(arrived.ref)).toBe(1);
  });
});
