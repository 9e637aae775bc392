// Labels, not codes (contract §7.11), through the app service against the sandbox over HTTPS: a zone
// picked as 安卓QQ区 is kept with its label (plain until accepted, then sealed with the account), the
// merchant receives its code (android-qq, read back from the sandbox's control API), the detail and the
// list show the label and the list never masks it; an order kept before labels were shows the cached
// template's label, or the code marked as the merchant's once the template no longer lists it, and keeps
// the label once confirmed again; batch rows keep their labels too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import type { PurchaseTemplate } from '../../../src/shared/merchant/template';
import { maskAccountValue } from '../../../src/shared/recharged-account';
import { getIntent, insertIntent } from '../../../src/core/orders/order-intent-store';
import { readCachedTemplate, storeTemplate } from '../../../src/core/orders/template-cache';
import { isOpen, isTopup, must, fen, type Catalog, type ControlProduct, type ControlVariant } from '../../support/orders-harness';
import { base64, utf8 } from '../batch/batch-fixtures';
import { expectContractShapes, openConnectedApp, orderDetailWhen, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;

beforeAll(async () => {
  ({ merchant, kit, catalog } = await openConnectedApp(SCALE));
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

interface Received {
  purchaseEntries: Record<string, string>[];
}

/** The demo merchant's 王者荣耀 top-up: a `zone` select (android-qq is 安卓QQ区), an account, a role name. */
const tencentZone = (p: ControlProduct, v: ControlVariant): boolean => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && p.name.startsWith('王者荣耀点券直充');
const ACCOUNT = 'player12345';

describe('labels of picked options, against the sandbox', () => {
  it('keeps 安卓QQ区 with the order, sends android-qq, and shows the label in the detail and (unmasked) in the list', async () => {
    const pick = catalog.claim(tencentZone, '王者荣耀 top-up with a zone');
    const productRef = pick.product.productRef;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const template = await kit.ok('orders.template', { productRef, variantRef });
    expect(template.purchaseFields.find((f) => f.fieldRef === 'zone')?.options).toContainEqual({ value: 'android-qq', label: '安卓QQ区' });

    const placed = await kit.ok('orders.place', { productRef, variantRef, units: 1, purchaseEntries: [{ zone: 'android-qq', account: ACCOUNT }], unitPriceFen: fen(pick.variant.price) });
    const ref = placed.clientOrderRef;
    const done = await orderDetailWhen(kit, ref, 'acceptance', (d) => d.intentStatus === 'accepted');

    // What the merchant received: the code, never the label.
    const received = await merchant.control<Received>('GET', `/control/orders/${ref}/received`);
    expect(received.purchaseEntries).toEqual([{ account: ACCOUNT, zone: 'android-qq' }]);

    // The detail: the value as sent (the code, which a re-confirmation sends back) with the label picked.
    for (const detail of [placed, done]) {
      expect(detail.rechargedEntries).toEqual([
        [
          { fieldRef: 'zone', label: '游戏区服', value: 'android-qq', picked: { fieldRef: 'zone', label: '安卓QQ区', merchantCode: null } },
          { fieldRef: 'account', label: '游戏账号', value: ACCOUNT, picked: null },
        ],
      ]);
    }
    // The list: the zone by its label, whole; only the typed account is masked.
    const row = must((await kit.ok('orders.list', {})).find((r) => r.clientOrderRef === ref), 'list row');
    expect(row.pickedOptions).toEqual([{ fieldRef: 'zone', label: '安卓QQ区', merchantCode: null }]);
    expect(row.rechargedAccountMasked).toBe(maskAccountValue(ACCOUNT));
    expect(JSON.stringify(row)).not.toContain('a***q');
    expect(JSON.stringify(row)).not.toContain('android-qq');

    // At rest: the label is sealed with its group (no plain entries once accepted, the label not in the bytes).
    const stored = must(getIntent(kit.core.db, ref), 'intent');
    expect(stored.purchaseEntries).toBeNull();
    const sealed = must(stored.rechargedEntriesSealed, 'sealed entries');
    expect(sealed.includes(Buffer.from('安卓QQ区', 'utf8'))).toBe(false);
    expect(kit.core.vault.openRechargedEntries(ref, sealed)).toEqual({ groups: [{ zone: 'android-qq', account: ACCOUNT }], optionLabels: [{ zone: '安卓QQ区' }] });
    expectContractShapes(kit);
  });

  it("shows an order kept before labels were by the cached template's label, else by its code marked as the merchant's", async () => {
    const pick = catalog.find(tencentZone, '王者荣耀 top-up with a zone');
    const productRef = pick.product.productRef;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    await kit.ok('orders.template', { productRef, variantRef });
    const { db } = kit.core;
    const ref = `o_legacy_${Date.now().toString(36)}`;
    // As an intent was kept before this change: the bare array of groups, no labels; parked, so never sent.
    db.transaction(() => {
      insertIntent(db, { clientOrderRef: ref, batchId: null, productRef, variantRef, productType: 'topup', units: 1, purchaseSchemaRevision: 1, purchaseEntries: [], optionLabels: [], orderCallbackUrl: null, imageUrl: null, confirmedUnitPriceFen: fen(pick.variant.price) }, 1_790_000_000);
      db.prepare(`UPDATE order_intents SET status = 'needs_confirmation', purchase_entries_json = ? WHERE client_order_ref = ?`).run(JSON.stringify([{ zone: 'android-qq', account: ACCOUNT }]), ref);
    })();
    expect(getIntent(db, ref)?.optionLabels).toBeNull();

    const zoneOf = async () => (await kit.ok('orders.get', { clientOrderRef: ref })).rechargedEntries?.[0]?.find((e) => e.fieldRef === 'zone');
    const rowOf = async () => must((await kit.ok('orders.list', {})).find((r) => r.clientOrderRef === ref), 'list row');
    expect(await zoneOf()).toEqual({ fieldRef: 'zone', label: '游戏区服', value: 'android-qq', picked: { fieldRef: 'zone', label: '安卓QQ区', merchantCode: null } });
    expect((await rowOf()).pickedOptions).toEqual([{ fieldRef: 'zone', label: '安卓QQ区', merchantCode: null }]);

    // The merchant drops that option from the template: the code is all that is known, said to be the merchant's.
    const cached = must(readCachedTemplate(db, productRef, variantRef), 'cached template');
    const without: PurchaseTemplate = {
      ...cached,
      purchaseFields: cached.purchaseFields.map((f) => (f.fieldRef === 'zone' ? { ...f, options: (f.options ?? []).filter((o) => o.value !== 'android-qq') } : f)),
    };
    storeTemplate(db, without, 1_790_000_100);
    expect(await zoneOf()).toEqual({ fieldRef: 'zone', label: '游戏区服', value: 'android-qq', picked: { fieldRef: 'zone', label: null, merchantCode: 'android-qq' } });
    const row = await rowOf();
    expect(row.pickedOptions).toEqual([{ fieldRef: 'zone', label: null, merchantCode: 'android-qq' }]);
    expect(row.rechargedAccountMasked).toBe(maskAccountValue(ACCOUNT));
    storeTemplate(db, cached, 1_790_000_200);

    // Confirmed again by the buyer: from now on the label is kept with it (and sealed once accepted), the code sent.
    await kit.ok('orders.confirm', { clientOrderRef: ref, units: 1, purchaseEntries: [{ zone: 'android-qq', account: ACCOUNT }], unitPriceFen: fen(pick.variant.price) });
    await orderDetailWhen(kit, ref, 'acceptance', (d) => d.intentStatus === 'accepted');
    const sealed = must(getIntent(db, ref)?.rechargedEntriesSealed, 'sealed entries');
    expect(kit.core.vault.openRechargedEntries(ref, sealed)?.optionLabels).toEqual([{ zone: '安卓QQ区' }]);
    expect((await merchant.control<Received>('GET', `/control/orders/${ref}/received`)).purchaseEntries).toEqual([{ account: ACCOUNT, zone: 'android-qq' }]);
  });

  it('keeps the label of an order placed while the merchant was away once its template comes', async () => {
    await waitFor('the first sync to finish', async () => ((await kit.ok('catalog.syncStatus')).running ? null : true), 60_000);
    const pick = catalog.find(tencentZone, '王者荣耀 top-up with a zone');
    const productRef = pick.product.productRef;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    kit.core.db.prepare('DELETE FROM templates WHERE product_ref = ?').run(productRef);
    await merchant.control('POST', '/control/faults', { refuseConnections: true });
    let ref: string | undefined;
    try {
      await kit.call('orders.template', { productRef, variantRef });
      await waitFor('the offline state', async () => ((await kit.ok('connection.state')).state === 'offline' ? true : null));
      const placed = await kit.ok('orders.place', { productRef, variantRef, units: 1, purchaseEntries: [{ zone: 'ios-qq', account: ACCOUNT }], unitPriceFen: fen(pick.variant.price) });
      expect(placed.intentStatus).toBe('needs_template');
      ref = placed.clientOrderRef;
    } finally {
      await merchant.control('POST', '/control/faults', { refuseConnections: false });
    }
    const accepted = await orderDetailWhen(kit, ref, 'the order to go out once the merchant is back', (d) => d.intentStatus === 'accepted');
    expect(accepted.rechargedEntries?.[0]?.find((e) => e.fieldRef === 'zone')?.picked).toEqual({ fieldRef: 'zone', label: '苹果QQ区', merchantCode: null });
    const sealed = must(getIntent(kit.core.db, ref)?.rechargedEntriesSealed, 'sealed entries');
    expect(kit.core.vault.openRechargedEntries(ref, sealed)?.optionLabels).toEqual([{ zone: '苹果QQ区' }]);
    expect((await merchant.control<Received>('GET', `/control/orders/${ref}/received`)).purchaseEntries).toEqual([{ account: ACCOUNT, zone: 'ios-qq' }]);
  }, 120_000);

  it('keeps the labels of batch rows, and the merchant receives the codes', async () => {
    const pick = catalog.find(tencentZone, '王者荣耀 top-up with a zone');
    const productRef = pick.product.productRef;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    await kit.ok('orders.template', { productRef, variantRef });
    const csv = `数量,区服,账号\r\n1,android-qq,${ACCOUNT}\r\n1,ios-wx,player67890\r\n`;
    const input = { file: { fileName: 'zones.csv', dataBase64: base64(utf8(csv)) }, productRef, variantRef, mapping: { [UNITS_TARGET]: '数量', zone: '区服', account: '账号' } };
    const preview = await kit.ok('batch.preview', input);
    expect(preview.totals.withErrors).toBe(0);
    const placed = await kit.ok('batch.place', {
      ...input,
      unitPriceFen: fen(pick.variant.price),
      confirmedTotalFen: preview.totals.totalFen,
      confirmedRows: 2,
      draftRef: `bd_labels_${Date.now().toString(36)}`,
    });
    const done = await waitFor('both rows accepted', async () => {
      const status = await kit.ok('batch.status', { batchId: placed.batchId });
      return status.counts.accepted === 2 ? status : null;
    });
    const refs = done.rows.map((row) => row.clientOrderRef);
    const details = await Promise.all(refs.map((ref) => kit.ok('orders.get', { clientOrderRef: ref })));
    expect(details.map((d) => d.rechargedEntries?.[0]?.find((e) => e.fieldRef === 'zone')?.picked?.label)).toEqual(['安卓QQ区', '苹果微信区']);
    const received = await Promise.all(refs.map((ref) => merchant.control<Received>('GET', `/control/orders/${ref}/received`)));
    expect(received.map((r) => r.purchaseEntries[0]?.zone)).toEqual(['android-qq', 'ios-wx']);
  });
});
