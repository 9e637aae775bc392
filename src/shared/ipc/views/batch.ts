// Batch orders from a file (issue 16, contract §13) as the renderer and core exchange them. The file
// travels as base64 within MAX_BATCH_FILE_BYTES on every call that needs it (preview, place, retry,
// export): core keeps no copy of its cells, which may be top-up accounts.
import { z } from 'zod';
import { INVALID_BYTES_CHOICES, MAX_BATCH_COLUMNS, MAX_BATCH_FILE_BASE64_CHARS } from '../../batch-file';
import { CLIENT_REF_PATTERN, DRAFT_REF_PATTERN } from '../../refs';
import { fen, seconds } from './view-fields';
import { merchantTagSchema, profileIdSchema } from './profiles';
import { OFFER_REASONS } from './compare';
import { batchDuplicateDecisionSchema, batchDuplicatesSchema } from './batch-duplicates';

export type { BatchDuplicateDecision, BatchDuplicateRowView, BatchDuplicatesView, BatchPlacedBeforeView } from './batch-duplicates';

/**
 * The batch went to another merchant under its link's fallback rule (contract §15.4): `from` could not
 * supply it (or asked above the limit), `to` is the rule's choice, whose own product and variant refs
 * the batch uses, at its current price, at or below `limitFen`.
 */
export const batchFallbackSchema = z.object({
  from: merchantTagSchema,
  to: merchantTagSchema,
  reason: z.enum(OFFER_REASONS),
  limitFen: fen,
  productRef: z.number().int(),
  variantRef: z.number().int(),
  /** What `from` asks per unit now (null: no price); in the preview only (issue 24). */
  fromUnitPriceFen: fen.nullable().optional(),
  /** `to`'s own product and variant as its catalog names them; in the preview only. */
  productName: z.string().optional(),
  variantTitle: z.string().optional(),
});
export type BatchFallbackView = z.infer<typeof batchFallbackSchema>;

/**
 * Where the money of a batch goes, merchant by merchant (issue 24): the orders (ready rows), units and
 * total each one is asked to charge at its unit price. Under a fallback the merchant the batch was
 * started from is listed too, with nothing, so the buyer sees it is not charged.
 */
export const batchMerchantShareSchema = z.object({
  merchant: merchantTagSchema,
  /** true: the rule's choice, another merchant than the one the batch was started from. */
  fallback: z.boolean(),
  orders: z.number().int().nonnegative(),
  units: z.number().int().nonnegative(),
  unitPriceFen: fen.nullable(),
  totalFen: fen,
});
export type BatchMerchantShare = z.infer<typeof batchMerchantShareSchema>;

export const batchFileSchema = z.object({
  fileName: z.string().min(1).max(255),
  dataBase64: z.string().max(MAX_BATCH_FILE_BASE64_CHARS).regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
export type BatchFileInput = z.infer<typeof batchFileSchema>;

/** target (fieldRef or "@units") → the file's header text. */
export const columnMapSchema = z
  .record(z.string().min(1).max(64), z.string().max(200))
  .refine((map) => Object.keys(map).length <= MAX_BATCH_COLUMNS + 1, { message: 'too many mapped columns' });

const batchRef = z.string().regex(CLIENT_REF_PATTERN);

export const batchPreviewInputSchema = z.object({
  file: batchFileSchema,
  productRef: z.number().int().positive(),
  variantRef: z.number().int().nonnegative(),
  /** null: the remembered mapping when it fits the file, else a guess from the headers. */
  mapping: columnMapSchema.nullable(),
  /** Units of a row without a units column; the template's minimum when absent. */
  defaultUnits: z.number().int().positive().max(100_000).optional(),
  /** A CSV with bytes invalid in its encoding: refused (absent), or the rows holding them marked (§13.1). */
  invalidBytes: z.enum(INVALID_BYTES_CHOICES).optional(),
});

export const batchRowErrorSchema = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
  /** OPTION: the cell as given (cut), why no option was taken, the labels to choose from (contract §7.11). */
  option: z.object({ given: z.string(), reason: z.enum(['unknown', 'ambiguous']), labels: z.array(z.string()) }).optional(),
  /** INVALID_BYTES carries the file's line and column (characters) of the row's first invalid bytes. */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});

export const batchPreviewRowSchema = z.object({
  rowNumber: z.number().int().positive(),
  /** Every cell of the row, as wide as the header. */
  cells: z.array(z.string()),
  values: z.record(z.string(), z.string()),
  units: z.number().int().nullable(),
  amountFen: fen.nullable(),
  errors: z.array(batchRowErrorSchema),
  /** The label of each option a passing row picked (fieldRef → label), however its cell named it. */
  optionLabels: z.record(z.string(), z.string()).optional(),
});
export type BatchPreviewRow = z.infer<typeof batchPreviewRowSchema>;

export const batchTotalsSchema = z.object({
  rows: z.number().int(),
  ok: z.number().int(),
  withErrors: z.number().int(),
  units: z.number().int(),
  totalFen: fen,
});

export const batchTargetSchema = z.object({ target: z.string(), label: z.string(), required: z.boolean(), type: z.string() });

export const batchPreviewSchema = z.object({
  format: z.enum(['csv', 'xlsx']),
  /** CSV: utf-8, utf-8-bom or gb18030; null for XLSX. */
  encoding: z.string().nullable(),
  header: z.array(z.string()),
  mapping: z.record(z.string(), z.string()),
  mappingSource: z.enum(['given', 'remembered', 'guessed']),
  mappingProblems: z.array(z.string()),
  targets: z.array(batchTargetSchema),
  unitRule: z.object({ min: z.number().int(), max: z.number().int(), step: z.number().int() }),
  entryMode: z.string(),
  defaultUnits: z.number().int(),
  unitPriceFen: fen,
  fileSha256: z.string(),
  rows: z.array(batchPreviewRowSchema),
  totals: batchTotalsSchema,
  /** Present when the link's fallback rule sends this batch to another merchant (its price is unitPriceFen). */
  fallback: batchFallbackSchema.optional(),
  /** With `fallback`: what each merchant is asked to charge (the confirm step's per-merchant totals). */
  merchants: z.array(batchMerchantShareSchema).optional(),
  /** Identical rows and earlier batches of this file (§13.8): placing needs the buyer's decision on each. */
  duplicates: batchDuplicatesSchema,
  /** Read with `markRows`: the encoding and how many rows hold invalid bytes (each marked INVALID_BYTES). */
  invalidBytes: z.object({ encoding: z.enum(['utf-8', 'gb18030']), rows: z.number().int() }).optional(),
});
export type BatchPreviewView = z.infer<typeof batchPreviewSchema>;

export const batchPlaceInputSchema = batchPreviewInputSchema.extend({
  mapping: columnMapSchema,
  /** The unit price the confirm step showed (fen): every row's intent carries it, the guard holds the merchant to it. */
  unitPriceFen: z.number().int().positive().max(100_000_000),
  /** The total and row count the buyer confirmed: a file or price that changed since is refused. */
  confirmedTotalFen: z.number().int().nonnegative(),
  confirmedRows: z.number().int().positive(),
  /** The confirm step's reference: confirming it again answers the same batch (0020). */
  draftRef: z.string().regex(DRAFT_REF_PATTERN),
  /**
   * The merchant the buyer agreed to pay when the preview named another one than the batch's own
   * (issue 24): a batch the rule would send elsewhere than this (or without it) is refused.
   */
  payToProfileId: profileIdSchema.optional(),
  /** Each duplicate row kept or skipped and each earlier batch confirmed (§13.8); absent: none expected. */
  duplicates: batchDuplicateDecisionSchema.optional(),
});

/** A row's place in the flow: queued, sending (or being checked), accepted, failed, waiting (for the buyer), withdrawn. */
export const BATCH_ROW_PHASES = ['queued', 'sending', 'accepted', 'failed', 'waiting', 'withdrawn'] as const;
export type BatchRowPhase = (typeof BATCH_ROW_PHASES)[number];

export const batchStatusRowSchema = z.object({
  rowNumber: z.number().int().positive(),
  clientOrderRef: z.string(),
  phase: z.enum(BATCH_ROW_PHASES),
  intentStatus: z.string(),
  state: z.string().nullable(),
  platformOrderRef: z.string().nullable(),
  units: z.number().int(),
  totalFen: fen.nullable(),
  confirmedUnitPriceFen: fen.nullable(),
  guardUnitPriceFen: fen.nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  earlierRefs: z.array(z.string()),
});
export type BatchStatusRow = z.infer<typeof batchStatusRowSchema>;

export const batchStatusSchema = z.object({
  batchId: z.string(),
  productRef: z.number().int(),
  variantRef: z.number().int(),
  fileName: z.string(),
  confirmedUnitPriceFen: fen,
  createdAt: seconds,
  rows: z.array(batchStatusRowSchema),
  counts: z.object({ queued: z.number().int(), sending: z.number().int(), accepted: z.number().int(), failed: z.number().int(), waiting: z.number().int(), withdrawn: z.number().int() }),
  /** Rows parked because the merchant asks more than confirmed, and the highest price it asks (fen). */
  priceChanged: z.object({ rows: z.number().int(), unitPriceFen: fen.nullable() }),
  /** What the merchant charged for the accepted rows (fen). */
  chargedFen: fen,
  /** Merchant-time ms until the queued rows are sent, from the orderCreate quota; null when nothing waits to be sent. */
  etaMs: z.number().int().nullable(),
  /** Present in batch.place's answer when the link's fallback rule sent the batch to another merchant. */
  fallback: batchFallbackSchema.optional(),
});
export type BatchStatusView = z.infer<typeof batchStatusSchema>;

export const batchRetryResultSchema = z.object({
  /** Rows sent again under the same ref (the merchant refused the create: it stored nothing). */
  requeued: z.number().int(),
  /** Rows given a new ref (the merchant created an order under the old one, which then failed); the old is kept as retired. */
  renewed: z.number().int(),
  /** Rows that cannot be retried as they are (the file's row no longer passes the form's rules). */
  skipped: z.array(z.object({ rowNumber: z.number().int(), reason: z.string() })),
  status: batchStatusSchema,
});

export const batchRefInputSchema = z.object({ batchId: batchRef });

export const batchExportInputSchema = z.object({
  batchId: batchRef,
  file: batchFileSchema,
  format: z.enum(['csv', 'xlsx']),
  /** The error column's words (a merchant code as the screens word it); zh-CN when absent. */
  language: z.enum(['zh-CN', 'en']).optional(),
});
export const batchExportSchema = z.object({ fileName: z.string(), dataBase64: z.string() });
