// A card order end to end through core: validated against the cached template, the intent durable
// before the create request leaves, accepted, tracked to completed by low-frequency polling, its
// cards sealed into the vault and equal to what the merchant shows, and no card secret anywhere in
// the database file, its WAL or the log. Also: invalid input is refused before any request.
import fs from 'node:fs';
import { parseAuditFacts } from '../../../src/shared/ipc/views/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PurchaseValidationError, TemplateNotSupportedError } from '../../../src/core/orders/order-errors';
import { readCachedTemplate, storeTemplate } from '../../../src/core/orders/template-cache';
import { listStoredOrders } from '../../../src/core/orders/order-store';
import { Catalog, controlProducts, entriesFor, getOrder, goodCard, isOpen, isTopup, launch, ledger, must, type Harness } from '../../support/orders-harness';
import { createOrdersKit, isCreate, refOfBody, waitUntil, type OrdersKit } from './orders-kit';

const SCALE = 50;
let h: Harness;
let kit: OrdersKit;
let catalog: Catalog;

beforeAll(async () => {
  h = await launch([], SCALE);
  kit = await createOrdersKit(h, { scale: SCALE });
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await kit?.close();
  await h?.sandbox.stop();
});

function rawFile(path: string): Buffer {
  return fs.existsSync(path) ? fs.readFileSync(path) : Buffer.alloc(0);
}

describe('card order end to end', () => {
  it('stores the intent before sending, tracks it to completed, and vaults exactly the delivered cards', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    await kit.seedTemplate(pick.product.productRef, pick.variant.variantRef, 'card');

    const seenAtSend: { ref: string; status: string | null }[] = [];
    kit.onRequest = (method, url, body) => {
      if (method !== 'POST' || !isCreate(url)) return;
      const ref = must(refOfBody(body), 'clientOrderRef in the create body');
      seenAtSend.push({ ref, status: kit.intents.getIntent(ref)?.status ?? null });
    };

    const intent = kit.intents.placeOrder({ productRef: pick.product.productRef, variantRef: pick.variant.variantRef, units: 3 });
    expect(intent.status).toBe('queued');
    expect(intent.clientOrderRef).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(kit.exchanges.filter((e) => isCreate(e.url))).toHaveLength(0);

    await kit.outbox.runOnce();
    kit.onRequest = null;
    // At the moment the create request was handed to the transport, the row existed, marked sending.
    expect(seenAtSend).toEqual([{ ref: intent.clientOrderRef, status: 'sending' }]);
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');

    const polled: number[] = [];
    kit.tracker.start();
    await waitUntil(() => listStoredOrders(kit.temp.db).some((o) => o.clientOrderRef === intent.clientOrderRef && o.state === 'completed'), 'the order to complete', 30_000);
    await kit.tracker.stop();
    const reads = kit.exchanges.filter((e) => e.method === 'GET' && e.url.includes(`/orders/${intent.clientOrderRef}`));
    for (const e of reads) polled.push(e.sentAt);
    // Low frequency: at least ~15 s of the client's clock between two polls of the order.
    for (let i = 1; i < polled.length; i++) expect((polled[i] ?? 0) - (polled[i - 1] ?? 0)).toBeGreaterThanOrEqual(14_000);

    const stored = must(kit.temp.db.prepare<[string], { next_poll_at: number | null; detail_json: string }>('SELECT next_poll_at, detail_json FROM orders WHERE client_order_ref = ?').get(intent.clientOrderRef), 'order row');
    expect(stored.detail_json).not.toContain('card_list');

    const merchant = await getOrder(h, kit.account, intent.clientOrderRef);
    const delivered = must(merchant.card_list, 'card_list');
    expect(delivered).toHaveLength(3);
    const masked = kit.vault.listCards(intent.clientOrderRef);
    expect(masked).toHaveLength(3);
    for (const card of masked) expect(card.cardNoMasked).toMatch(/^•+.{0,4}$/);
    const revealed = kit.vault.revealOrderCards(intent.clientOrderRef);
    expect(revealed.map((c) => ({ card_no: c.cardNo, card_password: c.cardPassword, expiresAt: c.expiresAt }))).toEqual(
      delivered.map((c) => ({ card_no: c.card_no, card_password: c.card_password, expiresAt: c.expiresAt })),
    );
    const one = kit.vault.revealCard(intent.clientOrderRef, 1);
    expect(one.cardNo).toBe(delivered[1]?.card_no);
    const audit = kit.temp.db.prepare<[], { action: string; subject: string; card_count: number; detail: string | null }>('SELECT action, subject, card_count, detail FROM audit_log ORDER BY id').all();
    // Facts in the detail (views/audit.ts): the order by the merchant's number; the card stored at seq 1 is the vault's #2.
    const order: unknown = expect.objectContaining({ platformOrderRef: merchant.platformOrderRef });
    expect(audit.map((row) => ({ ...row, detail: parseAuditFacts(row.detail) }))).toEqual([
      { action: 'reveal', subject: `order ${merchant.platformOrderRef}`, card_count: 3, detail: { v: 1, subject: { kind: 'order', order }, allCards: true } },
      { action: 'reveal', subject: `${merchant.platformOrderRef} #2`, card_count: 1, detail: { v: 1, subject: { kind: 'card', card: { order, seq: 1 } } } },
    ]);

    // A second delivery of the same detail is a no-op for the vault.
    await kit.tracker.refresh(intent.clientOrderRef);
    expect(kit.temp.db.prepare('SELECT count(*) AS n FROM cards').get()).toEqual({ n: 3 });

    const secrets = delivered.flatMap((c) => [c.card_no, c.card_password]);
    const dbFile = kit.temp.file;
    const before = { main: rawFile(dbFile), wal: rawFile(`${dbFile}-wal`) };
    expect(before.wal.byteLength).toBeGreaterThan(0);
    kit.temp.db.pragma('wal_checkpoint(TRUNCATE)');
    const after = { main: rawFile(dbFile), wal: rawFile(`${dbFile}-wal`) };
    const log = kit.logLines.join('\n');
    expect(log).toContain(intent.clientOrderRef);
    for (const secret of secrets) {
      for (const [name, bytes] of Object.entries({ mainBefore: before.main, walBefore: before.wal, mainAfter: after.main, walAfter: after.wal })) {
        expect(bytes.includes(Buffer.from(secret, 'utf8')), `card secret found in ${name}`).toBe(false);
      }
      expect(log.includes(secret), 'card secret found in the log').toBe(false);
    }

    const book = await ledger(h, kit.account);
    expect(entriesFor(book, intent.clientOrderRef, 'charge')).toHaveLength(1);
  });

  it('refuses invalid input against the cached template before writing or sending anything', async () => {
    const topup = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.entryMode === 'perUnit' && v.supply === 'succeed', 'perUnit top-up');
    const card = catalog.claim((p, v) => goodCard(p, v), 'another card');
    await kit.seedTemplate(topup.product.productRef, topup.variant.variantRef, 'topup');
    await kit.seedTemplate(card.product.productRef, card.variant.variantRef, 'card');
    const tpl = must(readCachedTemplate(kit.temp.db, topup.product.productRef, topup.variant.variantRef), 'cached template');
    const field = must(tpl.purchaseFields[0], 'a purchase field');
    const createsBefore = kit.exchanges.filter((e) => isCreate(e.url)).length;
    const intentsBefore = kit.intents.listIntents().length;

    const refusal = (fn: () => unknown): PurchaseValidationError => {
      try {
        fn();
      } catch (error) {
        if (error instanceof PurchaseValidationError) return error;
        throw error;
      }
      throw new Error('expected a PurchaseValidationError');
    };
    const base = { productRef: topup.product.productRef, variantRef: topup.variant.variantRef };
    const tooMany = refusal(() => kit.intents.placeOrder({ ...base, units: tpl.unitRule.max + 1, purchaseEntries: [] }));
    expect(tooMany.errors.map((e) => e.code)).toContain('UNITS_OUT_OF_RANGE');
    const wrongCount = refusal(() => kit.intents.placeOrder({ ...base, units: 2, purchaseEntries: [{ [field.fieldRef]: '13800138000' }] }));
    expect(wrongCount.errors).toEqual([expect.objectContaining({ path: 'purchaseEntries', code: 'ENTRY_COUNT' })]);
    const badValue = refusal(() => kit.intents.placeOrder({ ...base, units: 1, purchaseEntries: [{ [field.fieldRef]: 'not-a-number', extra: 'x' }] }));
    expect(badValue.errors.map((e) => e.path)).toEqual(expect.arrayContaining([`purchaseEntries[0].${field.fieldRef}`, 'purchaseEntries[0].extra']));
    expect(badValue.errors.find((e) => e.path === 'purchaseEntries[0].extra')?.code).toBe('UNKNOWN_FIELD');
    const missing = refusal(() => kit.intents.placeOrder({ ...base, units: 1, purchaseEntries: [{}] }));
    expect(missing.errors).toEqual([expect.objectContaining({ path: `purchaseEntries[0].${field.fieldRef}`, code: 'REQUIRED' })]);
    const cardWithEntries = refusal(() => kit.intents.placeOrder({ productRef: card.product.productRef, variantRef: card.variant.variantRef, units: 1, purchaseEntries: [{ a: 'b' }] }));
    expect(cardWithEntries.errors[0]?.code).toBe('ENTRY_COUNT');
    expect(badValue.message).not.toContain('not-a-number');

    // A template newer than the app (unknown entry mode, unknown field type) is refused as a whole.
    storeTemplate(kit.temp.db, { ...tpl, entryMode: 'perAccountMatrix' }, 1);
    expect(() => kit.intents.placeOrder({ ...base, units: 1, purchaseEntries: [] })).toThrow(TemplateNotSupportedError);
    storeTemplate(kit.temp.db, { ...tpl, purchaseFields: [{ ...field, type: 'qrCode' }] }, 1);
    expect(() => kit.intents.placeOrder({ ...base, units: 1, purchaseEntries: [{ [field.fieldRef]: '13800138000' }] })).toThrow(/does not know/);

    await kit.outbox.runOnce();
    expect(kit.intents.listIntents()).toHaveLength(intentsBefore);
    expect(kit.exchanges.filter((e) => isCreate(e.url)).length).toBe(createsBefore);
  });
});
