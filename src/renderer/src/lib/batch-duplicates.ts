// The buyer's answer to a batch's duplicates (contract §13.8): each duplicate row ordered as well or
// skipped, and the earlier batches of this file confirmed. Pure: what the preview step shows, what the
// confirmation totals, and what batch.place carries, all from one state.
import type { BatchDuplicateDecision, BatchPreviewView } from '../../../shared/ipc/views/batch';

export type RowChoice = 'keep' | 'skip';

export interface DuplicateChoices {
  readonly rows: ReadonlyMap<number, RowChoice>;
  /** The buyer ticked "order this file again" after seeing when it was placed. */
  readonly batchesAccepted: boolean;
}

export const NO_CHOICES: DuplicateChoices = { rows: new Map(), batchesAccepted: false };

export const undecidedRows = (preview: BatchPreviewView, choices: DuplicateChoices): number => preview.duplicates.rows.filter((row) => !choices.rows.has(row.rowNumber)).length;

/** Every duplicate row decided and every earlier batch confirmed: the buyer may go on to Pay. */
export function choicesComplete(preview: BatchPreviewView, choices: DuplicateChoices): boolean {
  return undecidedRows(preview, choices) === 0 && (preview.duplicates.placedBefore.length === 0 || choices.batchesAccepted);
}

export function withRow(choices: DuplicateChoices, rowNumber: number, choice: RowChoice): DuplicateChoices {
  const rows = new Map(choices.rows);
  rows.set(rowNumber, choice);
  return { ...choices, rows };
}

export function withAllRows(preview: BatchPreviewView, choices: DuplicateChoices, choice: RowChoice): DuplicateChoices {
  return { ...choices, rows: new Map(preview.duplicates.rows.map((row) => [row.rowNumber, choice])) };
}

const skippedRows = (preview: BatchPreviewView, choices: DuplicateChoices): Set<number> =>
  new Set(preview.duplicates.rows.filter((row) => choices.rows.get(row.rowNumber) === 'skip').map((row) => row.rowNumber));

/** The preview with its totals over the rows that will be placed (skipped duplicates taken out). */
export function placedPreview(preview: BatchPreviewView, choices: DuplicateChoices): BatchPreviewView {
  const skipped = skippedRows(preview, choices);
  if (skipped.size === 0) return preview;
  let units = 0;
  let totalFen = 0;
  for (const row of preview.rows) {
    if (!skipped.has(row.rowNumber)) continue;
    units += row.units ?? 0;
    totalFen += row.amountFen ?? 0;
  }
  const { totals } = preview;
  // Under a fallback rule the merchant paid is charged for the placed rows only: its share shrinks too.
  const merchants = preview.merchants?.map((share) =>
    share.fallback ? { ...share, orders: share.orders - skipped.size, units: share.units - units, totalFen: share.totalFen - totalFen } : share,
  );
  return {
    ...preview,
    totals: { ...totals, ok: totals.ok - skipped.size, units: totals.units - units, totalFen: totals.totalFen - totalFen },
    ...(merchants === undefined ? {} : { merchants }),
  };
}

/** What batch.place carries: the decided rows and, once ticked, every earlier batch named. */
export function decisionOf(preview: BatchPreviewView, choices: DuplicateChoices): BatchDuplicateDecision {
  const decided = preview.duplicates.rows.filter((row) => choices.rows.has(row.rowNumber));
  return {
    keepRows: decided.filter((row) => choices.rows.get(row.rowNumber) === 'keep').map((row) => row.rowNumber),
    skipRows: decided.filter((row) => choices.rows.get(row.rowNumber) === 'skip').map((row) => row.rowNumber),
    acceptedBatches: choices.batchesAccepted ? preview.duplicates.placedBefore.map((batch) => batch.batchId) : [],
  };
}
