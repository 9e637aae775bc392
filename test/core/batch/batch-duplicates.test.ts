// Duplicates caught before money moves (contract §13.8): rows of one file with the same entries after
// the form's cleaning (a fast-check property, seeded, over numbers written every way a buyer writes
// them), rows without entries never flagged; earlier batches of the same bytes at any time and of the
// same rows for the same product within 7 days, read through unsent, sealed and cleared rows; and the
// decision placing needs.
import fc from 'fast-check';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDecision, duplicateRows, DuplicatesNotConfirmedError, placedBefore, SAME_ROWS_WINDOW_S, type OpenSealedEntries } from '../../../src/core/batch/batch-duplicates';
import { previewBatch, type BatchRowPreview } from '../../../src/core/batch/batch-preview';
import type { BatchTable } from '../../../src/core/batch/batch-file-read';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import type { PurchaseTemplate } from '../../../src/shared/merchant/template';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const TEMPLATE: PurchaseTemplate = {
  productRef: 7,
  variantRef: 0,
  productType: 'topup',
  purchaseSchemaRevision: 3,
  entryMode: 'single',
  purchaseFields: [{ fieldRef: 'phone', label: '充值手机号', type: 'mobile', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true }],
  unitRule: { min: 1, max: 500, step: 1 },
};
const CARD: PurchaseTemplate = { ...TEMPLATE, productType: 'card', entryMode: 'none', purchaseFields: [] };

const table = (header: string[], rows: string[][]): BatchTable => ({ format: 'csv', encoding: 'utf-8', header, rows: rows.map((cells, i) => ({ rowNumber: i + 2, cells })) });
const preview = (rows: string[][], template = TEMPLATE): readonly BatchRowPreview[] =>
  previewBatch({ table: table(['手机号', '数量'], rows), template, mapping: template.entryMode === 'none' ? { [UNITS_TARGET]: '数量' } : { phone: '手机号', [UNITS_TARGET]: '数量' }, unitPriceFen: 100 }).rows;

/** The ways a buyer writes the mainland number 1ddddddddddd. */
function written(digits: string, how: number): string {
  const full = (s: string): string => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
  const spaced = `${digits.slice(0, 3)} ${digits.slice(3, 7)} ${digits.slice(7)}`;
  return [digits, spaced, `+86 ${digits}`, `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`, full(spaced), ` ${digits} `][how % 6] ?? digits;
}

describe('identical rows in one file', () => {
  it('flags a row whose cleaned entries equal an earlier row’s, naming that row', () => {
    const rows = preview([
      ['138 0013 8000', '1'],
      ['13900139000', '1'],
      ['13800138000', '2'],
      ['+86 138-0013-8000', '1'],
      ['12345', '1'],
      ['12345', '1'],
    ]);
    // Rows 6 and 7 fail the form's rules: they are never ordered, so never duplicates.
    expect(duplicateRows(rows)).toEqual([
      { rowNumber: 4, sameAs: 2 },
      { rowNumber: 5, sameAs: 2 },
    ]);
  });

  it('never flags rows without entries (card codes: identical rows are ordinary)', () => {
    expect(duplicateRows(preview([['', '1'], ['', '1'], ['', '1']], CARD))).toEqual([]);
  });

  it('flags exactly the rows whose number was seen before, however it is written (property)', () => {
    const pool = ['13800138000', '13900139000', '13700137000', '15000150000'];
    const row = fc.record({ number: fc.integer({ min: 0, max: pool.length - 1 }), how: fc.integer({ min: 0, max: 5 }), units: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (drawn) => {
        const rows = preview(drawn.map((r) => [written(pool[r.number] ?? '', r.how), String(r.units)]));
        const firstOf = new Map<number, number>();
        const expected: { rowNumber: number; sameAs: number }[] = [];
        drawn.forEach((r, index) => {
          const earlier = firstOf.get(r.number);
          if (earlier === undefined) firstOf.set(r.number, index + 2);
          else expected.push({ rowNumber: index + 2, sameAs: earlier });
        });
        expect(duplicateRows(rows)).toEqual(expected);
      }),
      { seed: 24_003, numRuns: 200 },
    );
  });
});

describe('a file already placed', () => {
  let temp: TempDatabase;
  let db: Database;
  const NOW = 2_000_000_000;
  const sealed = new Map<string, Record<string, string>[] | null>();
  const open: OpenSealedEntries = (ref) => sealed.get(ref) ?? null;
  beforeEach(() => {
    temp = createMigratedDatabase();
    db = temp.db;
    sealed.clear();
  });
  afterEach(() => temp.dispose());

  let refs = 0;
  /** A batch with rows: entries as stored while unsent, 'sealed' once accepted, 'cleared' when refused. */
  function batch(id: string, opts: { product?: number; sha?: string; at?: number; type?: 'topup' | 'card' }, rows: { phone?: string; units: number; stored: 'plain' | 'sealed' | 'cleared' }[]): void {
    db.prepare(
      `INSERT INTO batches (batch_id, draft_ref, product_ref, variant_ref, file_name, file_sha256, file_format, map_json, confirmed_unit_price_fen, row_count, created_at)
       VALUES (?, ?, ?, 0, ?, ?, 'csv', '{}', 100, ?, ?)`,
    ).run(id, `bd_${id}_0123456789abcdef`, opts.product ?? 7, `${id}.csv`, opts.sha ?? 'a'.repeat(64), rows.length, opts.at ?? NOW - 60);
    rows.forEach((row, index) => {
      const ref = `o_dup_${++refs}`;
      const entries = row.phone === undefined ? null : JSON.stringify([{ phone: row.phone }]);
      const status = row.stored === 'plain' ? 'queued' : row.stored === 'sealed' ? 'accepted' : 'rejected';
      db.prepare(
        `INSERT INTO order_intents (client_order_ref, batch_id, product_ref, variant_ref, product_type, units, purchase_entries_json, recharged_entries_sealed, status, created_at, updated_at)
         VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, 1, 1)`,
      ).run(ref, id, opts.product ?? 7, opts.type ?? 'topup', row.units, row.stored === 'plain' ? entries : null, row.stored === 'sealed' ? Buffer.from('sealed') : null, status);
      if (row.stored === 'sealed') sealed.set(ref, row.phone === undefined ? null : [{ phone: row.phone }]);
      db.prepare('INSERT INTO batch_rows (batch_id, row_number, client_order_ref, created_at) VALUES (?, ?, ?, 1)').run(id, index + 2, ref);
    });
  }
  const file = (rows: string[][], sha = 'b'.repeat(64), productRef = 7) => {
    const all = preview(rows);
    return { productRef, fileSha256: sha, rows: all.filter((row) => row.purchaseEntries !== null), now: NOW };
  };

  it('names a batch of the same bytes, at any time and for any product, with when it was placed', () => {
    batch('b_old', { sha: 'c'.repeat(64), at: NOW - 90 * 86_400, product: 9 }, [{ phone: '13000130000', units: 1, stored: 'plain' }]);
    expect(placedBefore(db, open, file([['13800138000', '1']], 'c'.repeat(64)))).toEqual([{ batchId: 'b_old', fileName: 'b_old.csv', productRef: 9, placedAt: NOW - 90 * 86_400, match: 'sameFile' }]);
  });

  it('names a batch of the same rows for the same product within 7 days, read unsent, sealed or cleared', () => {
    batch('b_plain', { at: NOW - 3600 }, [
      { phone: '13800138000', units: 1, stored: 'plain' },
      { phone: '13900139000', units: 2, stored: 'plain' },
    ]);
    batch('b_sealed', { at: NOW - 7200 }, [
      { phone: '13800138000', units: 1, stored: 'sealed' },
      { phone: '13900139000', units: 2, stored: 'sealed' },
    ]);
    batch('b_cleared', { at: NOW - 10_800 }, [
      { phone: '13800138000', units: 1, stored: 'sealed' },
      { units: 2, stored: 'cleared' },
    ]);
    // Not the same: another product, too old, other rows, other units, a row more.
    batch('b_other_product', { product: 8 }, [{ phone: '13800138000', units: 1, stored: 'plain' }, { phone: '13900139000', units: 2, stored: 'plain' }]);
    batch('b_too_old', { at: NOW - SAME_ROWS_WINDOW_S - 1 }, [{ phone: '13800138000', units: 1, stored: 'plain' }, { phone: '13900139000', units: 2, stored: 'plain' }]);
    batch('b_other_rows', {}, [{ phone: '13800138000', units: 1, stored: 'plain' }, { phone: '13700137000', units: 2, stored: 'plain' }]);
    batch('b_other_units', {}, [{ phone: '13800138000', units: 1, stored: 'plain' }, { phone: '13900139000', units: 3, stored: 'plain' }]);
    batch('b_more', {}, [{ phone: '13800138000', units: 1, stored: 'plain' }, { phone: '13900139000', units: 2, stored: 'plain' }, { phone: '13600136000', units: 2, stored: 'plain' }]);
    // Re-typed: other order, other spacing, other bytes.
    const found = placedBefore(db, open, file([['139 0013 9000', '2'], ['+86 13800138000', '1']]));
    expect(found.map((b) => [b.batchId, b.match])).toEqual([
      ['b_plain', 'sameRows'],
      ['b_sealed', 'sameRows'],
      ['b_cleared', 'sameRows'],
    ]);
    // A sealed row that cannot be opened (its key lost) stands for any row, as a cleared one.
    sealed.clear();
    expect(placedBefore(db, open, file([['13600136000', '1'], ['13500135000', '2']])).map((b) => b.batchId)).toEqual(['b_sealed', 'b_cleared']);
  });

  it('compares card batches by their units', () => {
    batch('b_cards', { type: 'card' }, [{ units: 1, stored: 'cleared' }, { units: 1, stored: 'sealed' }]);
    const cards = (units: string[]) => ({ productRef: 7, fileSha256: 'd'.repeat(64), rows: preview(units.map((u) => ['', u]), CARD), now: NOW });
    expect(placedBefore(db, open, cards(['1', '1', '1'])).map((b) => b.batchId)).toEqual(['b_cards']);
    expect(placedBefore(db, open, cards(['2']))).toEqual([]);
  });
});

describe('the decision placing needs', () => {
  const rows = [{ rowNumber: 4, sameAs: 2 }];
  const batches = [{ batchId: 'b_1', fileName: 'a.csv', productRef: 7, placedAt: 1_800_000_000, match: 'sameFile' as const }];
  it('refuses an undecided row or an unconfirmed batch, naming them, and passes a full answer', () => {
    expect(() => checkDecision(rows, batches, { keepRows: [], skipRows: [], acceptedBatches: ['b_1'] })).toThrow(/rows 4 \(same as row 2\)/);
    expect(() => checkDecision(rows, batches, { keepRows: [4], skipRows: [], acceptedBatches: [] })).toThrow(DuplicatesNotConfirmedError);
    expect(() => checkDecision(rows, batches, { keepRows: [4], skipRows: [], acceptedBatches: [] })).toThrow(/batch b_1 \(a\.csv\) at 2027-01-15T08:00:00\.000Z/);
    expect(() => checkDecision(rows, batches, { keepRows: [], skipRows: [4], acceptedBatches: ['b_1'] })).not.toThrow();
    expect(() => checkDecision([], [], { keepRows: [], skipRows: [], acceptedBatches: [] })).not.toThrow();
  });
});
