// What `batch` says about duplicates (contract §13.8): identical rows and a file already placed, named
// with when and which batch. Without --allow-duplicates placing is refused (exit 3, nothing sent);
// with it every duplicate row is kept and every earlier batch confirmed, as the app's explicit ticks.
import type { BatchDuplicateDecision, BatchDuplicatesView } from '../../shared/ipc/views/batch';
import { progress } from '../output';
import { formatStamp, formatUtcOffset, runtimeTimeZone } from '../../shared/date-time';

export const hasDuplicates = (duplicates: BatchDuplicatesView): boolean => duplicates.rows.length > 0 || duplicates.placedBefore.length > 0;

/** The time as the buyer reads it in a terminal: local date and time (contract §16) with its offset. */
function when(placedAtS: number): string {
  const zone = runtimeTimeZone();
  return `${formatStamp(placedAtS * 1000, zone)} (${formatUtcOffset(placedAtS * 1000, zone)})`;
}

/** One line per duplicate row and per earlier batch, on stderr. */
export function printDuplicates(duplicates: BatchDuplicatesView): void {
  for (const row of duplicates.rows) progress(`row ${row.rowNumber}: the same entries as row ${row.sameAs} (a duplicate)`);
  for (const batch of duplicates.placedBefore) {
    const what = batch.match === 'sameFile' ? 'this file (the same bytes)' : 'the same rows for this product';
    progress(`${what} was already placed on ${when(batch.placedAt)} as batch ${batch.batchId} (${batch.fileName})`);
  }
}

/** The JSON form of the duplicates, for --json. */
export function duplicatesJson(duplicates: BatchDuplicatesView): unknown {
  return { rows: duplicates.rows, placedBefore: duplicates.placedBefore.map((batch) => ({ ...batch, placedAt: new Date(batch.placedAt * 1000).toISOString() })) };
}

/** --allow-duplicates: every duplicate row kept, every earlier batch confirmed. */
export function allowAll(duplicates: BatchDuplicatesView): BatchDuplicateDecision {
  return { keepRows: duplicates.rows.map((row) => row.rowNumber), skipRows: [], acceptedBatches: duplicates.placedBefore.map((batch) => batch.batchId) };
}

export const REFUSED_MESSAGE = 'duplicates found: nothing was written or sent. Check the file; --allow-duplicates places these rows anyway.';
