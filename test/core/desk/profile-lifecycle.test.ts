// Adding, renaming and removing merchant profiles through the desk service (contract §15.1), with two
// sandboxes: names unique regardless of case; removal refused while an order is not finished at the
// merchant, then while cards were never exported (unless discardUnexportedCards), and for the last
// profile; once removed, its database folder and every secret it wrote are gone and the other
// profile works on untouched.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, waitFor } from '../app/app-kit';
import { orderDetailWhenOn, placeCardOrder } from './two-merchants-orders';
import { openTwoMerchants, startSide, type Side, type TwoMerchants } from './two-merchants-kit';

let a: Side;
let b: Side;
let t: TwoMerchants;

beforeAll(async () => {
  [a, b] = await Promise.all([startSide({ products: 60, seed: 5 }), startSide({ products: 70, seed: 9 })]);
  t = await openTwoMerchants(a, b);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([a?.merchant.stop(), b?.merchant.stop()]);
});

describe('merchant profiles: add, rename, remove', () => {
  it('names are unique regardless of case, on add and on rename', async () => {
    const taken = expectRefused(await t.call('profiles.add', { name: 'merchant b' }), 'INVALID_INPUT');
    expect(taken.message).toContain('already has this name');
    expectRefused(await t.call('profiles.add', { name: '   ' }), 'INVALID_INPUT');
    const p1Name = t.desk.profiles.find('p1')?.name ?? '';
    expectRefused(await t.call('profiles.rename', { profileId: 'p2', name: p1Name.toUpperCase() }), 'INVALID_INPUT');
    const renamed = await t.ok('profiles.rename', { profileId: 'p2', name: 'Shop Two' });
    expect(renamed.profiles.map((p) => p.name)).toEqual([p1Name, 'Shop Two']);
    // Its own name in another case is fine (a rename to itself).
    expect((await t.ok('profiles.rename', { profileId: 'p2', name: 'SHOP TWO' })).profiles[1]?.name).toBe('SHOP TWO');
    expect((await t.ok('profiles.list')).profiles.map((p) => p.id)).toEqual(['p1', 'p2']);
    await t.ok('profiles.rename', { profileId: 'p2', name: 'Shop Two' });
  });

  it('remove: refused with open work, then with cards never exported, then removes its folder and secrets; never the last', async () => {
    const folder = join(t.dataDir, 'profiles', 'p2');
    expect(existsSync(join(folder, 'procure-desk.sqlite'))).toBe(true);
    const ref = await placeCardOrder(t, b, 'p2');
    await orderDetailWhenOn(t, ref, (d) => d.intentStatus === 'accepted');
    const p2Secrets = (): string[] => [...t.secrets.names].filter((name) => name.startsWith('profile.p2.'));
    expect(p2Secrets()).toEqual(expect.arrayContaining(['profile.p2.merchant.api-key']));
    expect(p2Secrets().length).toBeGreaterThan(1);

    // The order is pending at the merchant: open work, counted.
    const work = await t.ok('profiles.work', { profileId: 'p2' });
    expect(work).toMatchObject({ orders: 1, cards: 0 });
    const busy = expectRefused(await t.call('profiles.remove', { profileId: 'p2', confirmName: 'shop two' }), 'ACTION_NOT_ALLOWED');
    expect(busy.message).toContain('1 order(s) not finished');
    // The name must be typed.
    expectRefused(await t.call('profiles.remove', { profileId: 'p2', confirmName: 'Shop' }), 'INVALID_INPUT');

    await b.merchant.advance(ref, 'processing');
    await b.merchant.advance(ref, 'completed');
    await waitFor('the cards in the vault', async () => (await t.ok('profiles.work', { profileId: 'p2' })).cards > 0);
    const withCards = await t.ok('profiles.work', { profileId: 'p2' });
    expect(withCards).toMatchObject({ orderIntents: 0, orders: 0, refunds: 0, aftersales: 0 });
    expect(withCards.cardsNotExported).toBe(withCards.cards);
    const unexported = expectRefused(await t.call('profiles.remove', { profileId: 'p2', confirmName: 'Shop Two' }), 'ACTION_NOT_ALLOWED');
    expect(unexported.message).toContain('never exported');
    // Refused: still there and still working.
    expect(existsSync(folder)).toBe(true);
    expect((await t.ok('orders.get', { clientOrderRef: ref })).state).toBe('completed');

    const left = await t.ok('profiles.remove', { profileId: 'p2', confirmName: 'Shop Two', discardUnexportedCards: true });
    expect(left.profiles.map((p) => p.id)).toEqual(['p1']);
    expect(left.activeId).toBe('p1');
    expect(existsSync(folder)).toBe(false);
    expect(p2Secrets()).toEqual([]);
    expect(await t.secrets.get('merchant.api-key')).toBe(a.account.apiKey);
    expectRefused(await t.call('orders.get', { clientOrderRef: ref }), 'NOT_FOUND');
    expect((await t.ok('orders.list', {})).map((o) => o.merchant?.profileId)).not.toContain('p2');

    // p1 goes on: its merchant answers it.
    expect((await t.ok('account.get')).userId).toBe(a.account.userId);
    const last = expectRefused(await t.call('profiles.remove', { profileId: 'p1', confirmName: t.desk.profiles.find('p1')?.name ?? '' }), 'ACTION_NOT_ALLOWED');
    expect(last.message).toContain('last merchant profile');
    expect((await t.ok('profiles.list')).profiles.map((p) => [p.id, p.connected])).toEqual([['p1', true]]);
    // A new profile gets a new id (p2 is never reused).
    expect((await t.ok('profiles.add', { name: 'Shop Two' })).profiles.map((p) => p.id)).toEqual(['p1', 'p3']);
  }, 120_000);
});
