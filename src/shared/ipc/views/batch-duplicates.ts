// Duplicates in a batch (issue 24 point 3, contract §13.8) as the renderer and core exchange them:
// what the preview names (identical rows, earlier batches of the same file) and what the buyer decided.
import { z } from 'zod';
import { CLIENT_REF_PATTERN } from '../../refs';
import { seconds } from './view-fields';

/** A row whose cleaned entries equal an earlier row's of the same file. */
export const batchDuplicateRowSchema = z.object({ rowNumber: z.number().int().positive(), sameAs: z.number().int().positive() });
export type BatchDuplicateRowView = z.infer<typeof batchDuplicateRowSchema>;

/** An earlier batch of this file: the same bytes, or the same rows for the same product within 7 days. */
export const batchPlacedBeforeSchema = z.object({
  batchId: z.string(),
  fileName: z.string(),
  productRef: z.number().int(),
  placedAt: seconds,
  match: z.enum(['sameFile', 'sameRows']),
});
export type BatchPlacedBeforeView = z.infer<typeof batchPlacedBeforeSchema>;

export const batchDuplicatesSchema = z.object({ rows: z.array(batchDuplicateRowSchema), placedBefore: z.array(batchPlacedBeforeSchema) });
export type BatchDuplicatesView = z.infer<typeof batchDuplicatesSchema>;

const rowNumbers = z.array(z.number().int().positive()).max(10_000);

/** The buyer's explicit answer: each duplicate row kept or skipped, each earlier batch confirmed. */
export const batchDuplicateDecisionSchema = z.object({
  keepRows: rowNumbers,
  skipRows: rowNumbers,
  acceptedBatches: z.array(z.string().regex(CLIENT_REF_PATTERN)).max(1000),
});
export type BatchDuplicateDecision = z.infer<typeof batchDuplicateDecisionSchema>;
