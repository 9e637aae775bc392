// Two merchants at once through the desk service (issue 17 "done when"): isolation of keys (each
// sandbox only ever receives its own profile's key; clearing one leaves the other connected), of the
// quota (merchant A answering 429 with Retry-After parks A's work while B's orders go through), of the
// catalogs (each profile's search shows its own merchant's products and prices), and the views across
// profiles (orders, vault, after-sales and audit rows tagged with their merchant and filtered by it,
// an order of B opened while A is active, notifications naming their merchant).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantTag } from '../../../src/shared/ipc/views/profiles';
import { cardOrderInput, orderDetailWhenOn, placeCardOrder } from './two-merchants-orders';
import { openTwoMerchants, startSide, type Side, type TwoMerchants } from './two-merchants-kit';
import { waitFor } from '../app/app-kit';
import type { ControlProduct } from '../../support/orders-harness';

let a: Side;
let b: Side;
let t: TwoMerchants;

const sha = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
const credentials = (side: Side): Promise<{ userId: string; apiKeySha256: string; accepted: boolean; requests: number }[]> => side.merchant.control('GET', '/control/credentials');
// p1 is named from its account (issue 26): its nickname, read once connected.
const P1: MerchantTag = { profileId: 'p1', name: '', nameSource: 'account' };

beforeAll(async () => {
  [a, b] = await Promise.all([startSide({ products: 60, seed: 3 }), startSide({ products: 80, seed: 11 })]);
  t = await openTwoMerchants(a, b);
  P1.name = t.desk.profiles.find('p1')?.name ?? '';
}, 120_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([a?.merchant.stop(), b?.merchant.stop()]);
});

describe('two merchants side by side', () => {
  it('each profile searches its own merchant\'s catalog with its own prices', async () => {
    const catalogs = new Map<string, ControlProduct[]>([
      ['p1', await a.merchant.products()],
      ['p2', await b.merchant.products()],
    ]);
    for (const profileId of ['p1', 'p2']) {
      await t.use(profileId);
      const found = await t.ok('catalog.search', { limit: 200 });
      const own = catalogs.get(profileId) ?? [];
      expect(found.total, profileId).toBe(own.length);
      const byRef = new Map(own.map((product) => [product.productRef, product]));
      for (const hit of found.items) {
        const product = byRef.get(hit.productRef);
        expect(product?.name, `${profileId} ${hit.productRef}`).toBe(hit.name);
        const cheapest = Math.min(...(product?.variants ?? []).map((v) => Math.round(Number(v.price) * 100)));
        if (hit.priceFromFen !== null) expect(hit.priceFromFen, `${profileId} ${hit.productRef}`).toBe(cheapest);
      }
    }
    // The two catalogs differ (else the test proves nothing).
    expect(catalogs.get('p1')?.length).not.toBe(catalogs.get('p2')?.length);
  }, 60_000);

  it('orders, vault, after-sales and audit across both carry the right merchant and filter by it; B\'s order opens while A is active', async () => {
    await t.use('p1');
    const refA = await placeCardOrder(t, a, 'p1');
    const refB = await placeCardOrder(t, b, 'p2');
    for (const [side, ref] of [[a, refA], [b, refB]] as const) {
      await side.merchant.advance(ref, 'processing');
      await side.merchant.advance(ref, 'completed');
    }
    await orderDetailWhenOn(t, refA, (d) => d.state === 'completed');
    await orderDetailWhenOn(t, refB, (d) => d.state === 'completed');
    const P2: MerchantTag = { profileId: 'p2', name: 'Merchant B', nameSource: 'buyer' };

    // A is active; B's order opens by its ref (the list row of another merchant).
    expect((await t.ok('profiles.list')).activeId).toBe('p1');
    const openedB = await t.ok('orders.get', { clientOrderRef: refB });
    expect(openedB.clientOrderRef).toBe(refB);
    expect(openedB.platformOrderRef).not.toBeNull();

    const orders = await t.ok('orders.list', {});
    expect(orders.map((o) => [o.clientOrderRef, o.merchant])).toEqual(expect.arrayContaining([[refA, P1], [refB, P2]]));
    expect((await t.ok('orders.list', { profile: 'p2' })).map((o) => o.clientOrderRef)).toEqual([refB]);
    expect((await t.ok('orders.list', { profile: 'p1' })).map((o) => o.clientOrderRef)).toEqual([refA]);

    await waitFor('the cards of both orders', async () => (await t.ok('vault.list', { offset: 0, limit: 100 })).total >= 2);
    const vault = await t.ok('vault.list', { offset: 0, limit: 100 });
    for (const row of vault.rows) expect(row.merchant, row.clientOrderRef).toEqual(row.clientOrderRef === refA ? P1 : P2);
    const vaultB = await t.ok('vault.list', { offset: 0, limit: 100, profile: 'p2' });
    expect(vaultB.rows.length).toBeGreaterThan(0);
    expect(new Set(vaultB.rows.map((row) => row.clientOrderRef))).toEqual(new Set([refB]));

    // A reveal of B's card while A is active: audited in B's log, tagged B.
    const seqB = vaultB.rows[0]?.seq ?? 0;
    await t.ok('vault.reveal', { clientOrderRef: refB, seq: seqB });
    const audit = await t.ok('audit.list', { limit: 50 });
    const reveal = audit.find((row) => row.action === 'reveal');
    expect(reveal?.merchant).toEqual(P2);
    expect(await t.ok('audit.list', { limit: 50, profile: 'p1', action: 'reveal' })).toEqual([]);

    const opened = await t.ok('aftersales.open', { clientOrderRef: refB, category: 'cardInvalid', description: 'card does not work (two-merchant test)', images: [] });
    const cases = await t.ok('aftersales.list', {});
    expect(cases.map((row) => [row.platformCaseRef, row.merchant])).toEqual([[opened.platformCaseRef, P2]]);
    expect(await t.ok('aftersales.list', { profile: 'p1' })).toEqual([]);

    // The completions were told with their merchant.
    const completed = await waitFor('both completion notices', () => {
      const notices = t.events.filter((e) => e.event === 'app.notification').map((e) => e.payload as { kind: string; clientOrderRef?: string; merchant?: MerchantTag });
      const done = notices.filter((n) => n.kind === 'orderCompleted');
      return done.length >= 2 ? done : null;
    });
    for (const notice of completed) expect(notice.merchant, notice.clientOrderRef).toEqual(notice.clientOrderRef === refA ? P1 : P2);
  }, 120_000);

  it('A answering 429 with Retry-After parks A\'s requests while B\'s orders and sync go on', async () => {
    const ledgerRefs = async (side: Side): Promise<string[]> =>
      (await side.merchant.control<{ entries: { clientOrderRef: string }[] }>('GET', `/control/ledger/${side.account.userId}`)).entries.map((entry) => entry.clientOrderRef);
    const p1 = await t.desk.open('p1');
    const p2 = await t.desk.open('p2');
    const parkedUntil = (db: typeof p1.core.db): number => db.prepare<[], { n: number | null }>('SELECT max(not_before_ms) AS n FROM merchant_not_before').get()?.n ?? 0;
    const chargedA = await ledgerRefs(a);
    await a.merchant.control('POST', '/control/faults', { errorRate: 1, errorStatus: 429 });
    try {
      // A's order meets the quota: refused for now (429001) or kept to be sent later, never charged.
      const triedA = await t.call('orders.place', await cardOrderInput(a, 'p1'));
      if (!triedA.ok) expect(triedA.error).toMatchObject({ code: 'MERCHANT_REFUSED', merchantCode: 429001 });
      await waitFor('A parked by its Retry-After', () => parkedUntil(p1.core.db) > 0);
      expect(parkedUntil(p2.core.db)).toBe(0);

      // B, meanwhile: an order made and charged, a sync run to its end.
      const refB = await placeCardOrder(t, b, 'p2');
      await waitFor('B charged for its order', async () => (await ledgerRefs(b)).includes(refB));
      await orderDetailWhenOn(t, refB, (d) => d.intentStatus === 'accepted');
      await t.use('p2');
      await t.sync();
      expect(parkedUntil(p2.core.db)).toBe(0);
      expect(await ledgerRefs(a)).toEqual(chargedA);
    } finally {
      await a.merchant.control('POST', '/control/faults', { errorRate: 0 });
    }
    // A answers again: its orders go through once the wait is over.
    const refA = await waitFor('an order at A again', async () => {
      const placed = await t.call('orders.place', await cardOrderInput(a, 'p1'));
      return placed.ok ? (placed.value as { clientOrderRef: string }).clientOrderRef : null;
    });
    await waitFor('A charged again', async () => (await ledgerRefs(a)).includes(refA));
  }, 120_000);

  it('each merchant only ever received its own profile\'s key; clearing B\'s key leaves A connected', async () => {
    const seenA = await credentials(a);
    const seenB = await credentials(b);
    expect(seenA.length).toBeGreaterThan(0);
    expect(seenB.length).toBeGreaterThan(0);
    expect(new Set(seenA.map((row) => `${row.userId} ${row.apiKeySha256}`))).toEqual(new Set([`${a.account.userId} ${sha(a.account.apiKey)}`]));
    expect(new Set(seenB.map((row) => `${row.userId} ${row.apiKeySha256}`))).toEqual(new Set([`${b.account.userId} ${sha(b.account.apiKey)}`]));
    // Stored under each profile's own name.
    expect(await t.secrets.get('merchant.api-key')).toBe(a.account.apiKey);
    expect(await t.secrets.get('profile.p2.merchant.api-key')).toBe(b.account.apiKey);

    await t.use('p2');
    await t.ok('connection.clearKey');
    const listed = await t.ok('profiles.list');
    expect(listed.profiles.map((p) => [p.id, p.connected])).toEqual([
      ['p1', true],
      ['p2', false],
    ]);
    expect(await t.secrets.get('profile.p2.merchant.api-key')).toBeNull();
    expect(await t.secrets.get('merchant.api-key')).toBe(a.account.apiKey);
    // A still answers A's profile.
    await t.use('p1');
    const account = await t.ok('account.get');
    expect(account.userId).toBe(a.account.userId);
    const after = await credentials(a);
    expect(new Set(after.map((row) => row.apiKeySha256))).toEqual(new Set([sha(a.account.apiKey)]));
  }, 60_000);
});
