// Every row of a batch file checked by the order form's own rules (contract §13.3): the mapped cells
// become units and one entry group, and validatePurchase (orders/purchase-validation.ts: the shared
// unitRule and field rules, values cleaned first) decides, exactly as for an order placed from the
// dialog or `order create`. A row that fails keeps every problem; a row that passes keeps the cleaned
// entries that will be stored and sent. Pure: no database, no merchant.
import { UNITS_TARGET, type BatchColumnMap } from '../../shared/batch-file';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import { optionLabelsOf, type OptionLabels } from '../../shared/purchase-option-labels';
import { readUnitsText } from '../../shared/units-text';
import { PurchaseValidationError, type PurchaseFieldError } from '../orders/order-errors';
import { validatePurchase } from '../orders/purchase-validation';
import type { BatchTable } from './batch-file-read';

export type BatchRowErrorCode = PurchaseFieldError['code'] | 'UNITS_EMPTY' | 'UNITS_NOT_WHOLE' | 'INVALID_BYTES';

export interface BatchRowError {
  /** `units`, `purchaseEntries`, the fieldRef, or `file` (INVALID_BYTES). */
  readonly path: string;
  readonly code: BatchRowErrorCode;
  readonly message: string;
  /** OPTION: the cell as given, why no option was taken, and the labels (contract §7.11 "Filled by label"). */
  readonly option?: PurchaseFieldError['option'];
  /** INVALID_BYTES: the file's line and the column (characters) of the row's first invalid bytes. */
  readonly line?: number;
  readonly column?: number;
}

export interface BatchRowPreview {
  readonly rowNumber: number;
  /** Every cell of the row as the file has it (as wide as the header), for the preview table. */
  readonly cells: readonly string[];
  /** The mapped cells as the file has them (target → text). */
  readonly values: Readonly<Record<string, string>>;
  /** Null when the units cell is not a whole number. */
  readonly units: number | null;
  /** The cleaned entries to store and send (a select's code, however the cell named it); null for a row with errors. */
  readonly purchaseEntries: Record<string, string>[] | null;
  /** The label of each option the row picked (fieldRef → label), for the preview; empty for a row with errors. */
  readonly optionLabels: OptionLabels;
  readonly amountFen: number | null;
  readonly errors: readonly BatchRowError[];
}

export interface BatchTotals {
  readonly rows: number;
  readonly ok: number;
  readonly withErrors: number;
  /** Units of the rows that are OK. */
  readonly units: number;
  /** units × unit price over the rows that are OK, fen. */
  readonly totalFen: number;
}

export interface BatchPreview {
  readonly rows: readonly BatchRowPreview[];
  readonly totals: BatchTotals;
}

export interface PreviewInput {
  readonly table: BatchTable;
  readonly template: PurchaseTemplate;
  readonly mapping: BatchColumnMap;
  /** The unit price shown to the buyer (fen). */
  readonly unitPriceFen: number;
  /** Units of a row when no units column is mapped; the template's minimum when absent. */
  readonly defaultUnits?: number;
}

/** Strips the field path's group prefix: `purchaseEntries[0].phone` → `phone`. */
const pathOf = (path: string): string => path.replace(/^purchaseEntries\[\d+\]\./, '');

function rowUnits(cell: string | undefined, fallback: number): { units: number | null; error: BatchRowError | null } {
  if (cell === undefined) return { units: fallback, error: null };
  const reading = readUnitsText(cell);
  if (reading.ok) return { units: reading.units, error: null };
  if (reading.problem === 'empty') return { units: null, error: { path: 'units', code: 'UNITS_EMPTY', message: 'units: empty' } };
  return { units: null, error: { path: 'units', code: 'UNITS_NOT_WHOLE', message: 'units: not a whole number' } };
}

export function previewBatch(input: PreviewInput): BatchPreview {
  const { table, template, mapping, unitPriceFen } = input;
  const fallbackUnits = input.defaultUnits ?? template.unitRule.min;
  const columnOf = new Map<string, number>();
  for (const [target, column] of Object.entries(mapping)) {
    const index = table.header.indexOf(column);
    if (index >= 0) columnOf.set(target, index);
  }
  const unitsColumn = columnOf.get(UNITS_TARGET);
  const fields = template.entryMode === 'none' ? [] : template.purchaseFields;
  let ok = 0;
  let units = 0;
  let totalFen = 0;
  const rows = table.rows.map((row): BatchRowPreview => {
    const values: Record<string, string> = {};
    for (const [target, index] of columnOf) values[target] = row.cells[index] ?? '';
    const read = rowUnits(unitsColumn === undefined ? undefined : (row.cells[unitsColumn] ?? ''), fallbackUnits);
    const group: Record<string, string> = {};
    for (const field of fields) {
      const value = values[field.fieldRef];
      if (value !== undefined) group[field.fieldRef] = value;
    }
    const errors: BatchRowError[] = read.error === null ? [] : [read.error];
    // A row with bytes invalid in the file's encoding (the buyer chose to mark them) is never checked or ordered.
    const spot = row.invalidBytes;
    if (spot !== undefined) errors.push({ path: 'file', code: 'INVALID_BYTES', message: `invalid ${table.invalidBytes?.encoding === 'gb18030' ? 'GB18030' : 'UTF-8'} bytes at line ${spot.line}, column ${spot.column}`, line: spot.line, column: spot.column });
    let purchaseEntries: Record<string, string>[] | null = null;
    if (read.units !== null && spot === undefined) {
      try {
        purchaseEntries = validatePurchase(template, { units: read.units, purchaseEntries: template.entryMode === 'none' ? [] : [group] });
      } catch (error) {
        if (!(error instanceof PurchaseValidationError)) throw error;
        errors.push(...error.errors.map((e) => ({ path: pathOf(e.path), code: e.code, message: e.message, ...(e.option === undefined ? {} : { option: e.option }) })));
      }
    }
    const good = errors.length === 0 && read.units !== null;
    const amountFen = read.units === null ? null : read.units * unitPriceFen;
    if (good) {
      ok += 1;
      units += read.units ?? 0;
      totalFen += amountFen ?? 0;
    }
    const cells = Array.from({ length: table.header.length }, (_, index) => row.cells[index] ?? '');
    const optionLabels = good ? (optionLabelsOf(fields, purchaseEntries ?? [])[0] ?? {}) : {};
    return { rowNumber: row.rowNumber, cells, values, units: read.units, purchaseEntries: good ? purchaseEntries : null, optionLabels, amountFen, errors };
  });
  return { rows, totals: { rows: rows.length, ok, withErrors: rows.length - ok, units, totalFen } };
}
