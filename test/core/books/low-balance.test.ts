// The crossing rule on SQLite on disk: below after above is a crossing, staying below is not, above
// then below again is; the state survives reopening the database; a line of 0 is off.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { noteBalanceAgainstLine } from '../../../src/core/books/low-balance';
import { openDatabase } from '../../../src/core/db/open-database';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

let temp: TempDatabase | null = null;
afterEach(() => {
  temp?.dispose();
  temp = null;
});

describe('low-balance line', () => {
  it('notifies once per crossing and remembers it across a reopen', () => {
    temp = createMigratedDatabase();
    const line = 100_00;
    expect(noteBalanceAgainstLine(temp.db, 500_00, line, 1)).toBe(false);
    expect(noteBalanceAgainstLine(temp.db, 99_99, line, 2)).toBe(true);
    expect(noteBalanceAgainstLine(temp.db, 50_00, line, 3)).toBe(false);
    temp.db.close();
    const reopened = openDatabase(temp.file);
    try {
      expect(noteBalanceAgainstLine(reopened, 40_00, line, 4)).toBe(false);
      expect(noteBalanceAgainstLine(reopened, 100_00, line, 5)).toBe(false);
      expect(noteBalanceAgainstLine(reopened, 10_00, line, 6)).toBe(true);
      // 0 is off: never below it, and the next line set starts from "above".
      expect(noteBalanceAgainstLine(reopened, 0, 0, 7)).toBe(false);
      expect(noteBalanceAgainstLine(reopened, 0, line, 8)).toBe(true);
    } finally {
      reopened.close();
    }
  });

  it('notifies exactly at the moves from at-or-above to below (property)', () => {
    temp = createMigratedDatabase();
    const db = temp.db;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 40 }), (balances) => {
        db.prepare("DELETE FROM settings WHERE key = 'books.lowBalanceState'").run();
        const line = 100;
        let wasBelow = false;
        for (const b of balances) {
          const below = b < line;
          expect(noteBalanceAgainstLine(db, b, line, 1)).toBe(below && !wasBelow);
          wasBelow = below;
        }
      }),
      { numRuns: 50 },
    );
  });
});
