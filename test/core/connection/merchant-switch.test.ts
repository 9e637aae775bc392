// Which connections count as another merchant account (merchant-switch.ts), and what counts as open
// work that blocks the switch, on a real migrated database.
import { afterEach, describe, expect, it } from 'vitest';
import { hasOpenWork, isSameAccount, openWork } from '../../../src/core/connection/merchant-switch';
import { migrate } from '../../../src/core/db/migrate';
import { createTempDatabase, type TempDatabase } from '../db/temp-database';

const A = { baseUrl: 'https://a.example/openapi/v1', userId: '170001', accountRef: 1 };

describe('merchant switch', () => {
  it('tells the same account from another: address and user ID must match, accountRef when both know it', () => {
    expect(isSameAccount(A, { ...A })).toBe(true);
    expect(isSameAccount({ ...A, accountRef: null }, A)).toBe(true);
    expect(isSameAccount(A, { ...A, accountRef: 2 })).toBe(false);
    expect(isSameAccount(A, { ...A, userId: '170002' })).toBe(false);
    // Another merchant with the same account numbers is another account.
    expect(isSameAccount(A, { ...A, baseUrl: 'https://b.example/openapi/v1' })).toBe(false);
  });

  let temp: TempDatabase | null = null;
  afterEach(() => {
    temp?.dispose();
    temp = null;
  });

  it('counts unsent orders and unfinished refunds as open work, finished ones not', () => {
    temp = createTempDatabase();
    const { db } = temp;
    migrate(db);
    expect(hasOpenWork(openWork(db))).toBe(false);
    const intent = db.prepare("INSERT INTO order_intents (client_order_ref, product_ref, product_type, units, status, created_at, updated_at) VALUES (?, 1, 'card', 1, ?, 1, 1)");
    intent.run('o_done', 'accepted');
    intent.run('o_refused', 'rejected');
    intent.run('o_withdrawn', 'withdrawn');
    expect(openWork(db)).toEqual({ orderIntents: 0, orders: 0, refunds: 0, aftersales: 0 });
    intent.run('o_queued', 'queued');
    intent.run('o_unknown', 'unknown');
    expect(openWork(db).orderIntents).toBe(2);
    expect(hasOpenWork(openWork(db))).toBe(true);
  });
});
