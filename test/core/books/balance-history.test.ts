// The balance history's rules, on SQLite on disk: equal answers extend one run, a change starts a new
// one, an answer older than the latest run never overwrites the newer balance, merchants never mix, and
// a moment is either seen or between two runs (never guessed).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { balanceAt, balanceObservations, recordBalance, type BalanceAnswer } from '../../../src/core/books/balance-history';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const owner = { baseUrl: 'https://shop.example.cn/openapi/v1', userId: '170001' };
const other = { baseUrl: 'https://other.example.cn/openapi/v1', userId: '170001' };
const answer = (balanceFen: number, requestId: string | null = null): BalanceAnswer => ({ accountRef: 7, balanceFen, currency: 'CNY', requestId });

let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

describe('balance history', () => {
  it('extends a run while answers agree and starts a new one when the balance moves', () => {
    temp = createMigratedDatabase();
    recordBalance(temp.db, owner, answer(100_00, 'r1'), 1_000);
    recordBalance(temp.db, owner, answer(100_00, 'r2'), 2_000);
    recordBalance(temp.db, owner, answer(90_00, 'r3'), 3_000);
    recordBalance(temp.db, owner, answer(90_00, 'r4'), 4_000);
    expect(balanceObservations(temp.db, owner, 0, 10_000)).toEqual([
      { accountRef: 7, currency: 'CNY', balanceFen: 100_00, firstSeenAtMs: 1_000, lastSeenAtMs: 2_000, answers: 2, requestId: 'r1' },
      { accountRef: 7, currency: 'CNY', balanceFen: 90_00, firstSeenAtMs: 3_000, lastSeenAtMs: 4_000, answers: 2, requestId: 'r3' },
    ]);
  });

  it('a balance that comes back to an earlier value is a new run, not the old one widened', () => {
    temp = createMigratedDatabase();
    recordBalance(temp.db, owner, answer(100), 1_000);
    recordBalance(temp.db, owner, answer(50), 2_000);
    recordBalance(temp.db, owner, answer(100), 3_000);
    expect(balanceObservations(temp.db, owner, 0, 10_000).map((o) => [o.balanceFen, o.firstSeenAtMs])).toEqual([
      [100, 1_000],
      [50, 2_000],
      [100, 3_000],
    ]);
  });

  it('an answer older than the latest run does not replace the newer balance', () => {
    temp = createMigratedDatabase();
    recordBalance(temp.db, owner, answer(100), 5_000);
    recordBalance(temp.db, owner, answer(80), 4_000);
    expect(balanceObservations(temp.db, owner, 0, 10_000).map((o) => o.balanceFen)).toEqual([100]);
  });

  it('keeps merchants and accounts apart', () => {
    temp = createMigratedDatabase();
    recordBalance(temp.db, owner, answer(100), 1_000);
    recordBalance(temp.db, other, answer(999), 1_500);
    recordBalance(temp.db, owner, { ...answer(100), accountRef: 8 }, 2_000);
    expect(balanceObservations(temp.db, other, 0, 10_000).map((o) => o.balanceFen)).toEqual([999]);
    expect(balanceObservations(temp.db, owner, 0, 10_000).map((o) => o.accountRef)).toEqual([7, 8]);
  });

  it('observations of a range start with the run before it', () => {
    temp = createMigratedDatabase();
    recordBalance(temp.db, owner, answer(300), 1_000);
    recordBalance(temp.db, owner, answer(200), 2_000);
    recordBalance(temp.db, owner, answer(100), 6_000);
    recordBalance(temp.db, owner, answer(50), 9_000);
    expect(balanceObservations(temp.db, owner, 5_000, 8_000).map((o) => o.balanceFen)).toEqual([200, 100]);
  });

  it('says a moment is seen inside a run, or between runs with what is known either side', () => {
    temp = createMigratedDatabase();
    expect(balanceAt(temp.db, owner, 1_000)).toEqual({ kind: 'between', before: null, after: null });
    recordBalance(temp.db, owner, answer(100), 1_000);
    recordBalance(temp.db, owner, answer(100), 2_000);
    recordBalance(temp.db, owner, answer(70), 5_000);
    expect(balanceAt(temp.db, owner, 1_500)).toMatchObject({ kind: 'seen', observation: { balanceFen: 100 } });
    const between = balanceAt(temp.db, owner, 3_000);
    expect(between.kind).toBe('between');
    if (between.kind === 'between') {
      expect(between.before?.balanceFen).toBe(100);
      expect(between.after?.balanceFen).toBe(70);
    }
    expect(balanceAt(temp.db, owner, 500)).toMatchObject({ kind: 'between', before: null, after: { balanceFen: 100 } });
  });

  it('property: the runs, read back, say the answers in time order with no two neighbours equal', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 40 }), (balances) => {
        const db = createMigratedDatabase();
        try {
          balances.forEach((balance, i) => recordBalance(db.db, owner, answer(balance), 1_000 * (i + 1)));
          const runs = balanceObservations(db.db, owner, 0, 1_000_000);
          const collapsed = balances.filter((balance, i) => i === 0 || balances[i - 1] !== balance);
          expect(runs.map((run) => run.balanceFen)).toEqual(collapsed);
          expect(runs.reduce((sum, run) => sum + run.answers, 0)).toBe(balances.length);
        } finally {
          db.dispose();
        }
      }),
      { numRuns: 30 },
    );
  });
});
