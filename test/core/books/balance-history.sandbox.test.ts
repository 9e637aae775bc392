// Every GET /account answer of a connection is history: the connect test's, a balance read after the
// merchant changed it, each under this merchant's address and user ID, with the merchant's request ID.
// The key is in no row.
import { afterEach, describe, expect, it } from 'vitest';
import { balanceObservations } from '../../../src/core/books/balance-history';
import { openConnectedApp, type ConnectedApp } from '../app/app-kit';

let opened: ConnectedApp | null = null;
afterEach(async () => {
  await opened?.kit.close();
  await opened?.merchant.stop();
  opened = null;
});

describe('balance history from the merchant', () => {
  it('records the connect answer and each balance the merchant later reports', async () => {
    opened = await openConnectedApp(10);
    const { kit, merchant, account } = opened;
    const owner = { baseUrl: merchant.sandbox.baseUrl, userId: account.userId };
    const first = balanceObservations(kit.core.db, owner, 0, Number.MAX_SAFE_INTEGER);
    expect(first.map((o) => o.balanceFen)).toEqual([100_000_00]);
    expect(first[0]?.requestId).toMatch(/\S/);

    await kit.ok('account.get');
    expect(balanceObservations(kit.core.db, owner, 0, Number.MAX_SAFE_INTEGER)).toHaveLength(1);

    await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: '250.50' });
    const view = await kit.ok('account.get');
    expect(view.balanceFen).toBe(250_50);
    const runs = balanceObservations(kit.core.db, owner, 0, Number.MAX_SAFE_INTEGER);
    expect(runs.map((o) => o.balanceFen)).toEqual([100_000_00, 250_50]);
    expect(runs[0]?.answers).toBeGreaterThanOrEqual(2);

    const dump = JSON.stringify(kit.core.db.prepare('SELECT * FROM balance_history').all());
    expect(dump).not.toContain(account.apiKey);
  });
});
