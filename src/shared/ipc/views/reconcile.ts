// Reconciliation as the screen and the CLI see it (contract §12.2): the range, the totals, the balance
// check and each difference. Built from counts and the merchant's list items, never from card secrets.
import { z } from 'zod';
import { fen, seconds } from './view-fields';
import { EXPORT_LANGUAGES } from './vault';

/** A day as the buyer names it, in their own time zone: YYYY-MM-DD. */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const daySchema = z.string().regex(DAY_PATTERN);

/** The longest range one run covers: about a quarter (a longer one is several runs). */
export const MAX_RECONCILE_DAYS = 92;

// Strict: every field is optional, so an object of other keys would otherwise pass as "yesterday".
export const reconcileInputSchema = z.strictObject({
  /** Both absent: yesterday. One absent: the other's day. */
  fromDay: daySchema.optional(),
  toDay: daySchema.optional(),
});
export type ReconcileInput = z.infer<typeof reconcileInputSchema>;

/** One side of an order as compared: the merchant's list (or detail) or the app's books. */
export const orderFactsSchema = z.object({
  state: z.string(),
  units: z.number().int(),
  totalFen: fen,
  refundedFen: fen,
  /** Succeeded refunds, their sum in fen. */
  refundsSucceededFen: fen,
  refundCount: z.number().int(),
});
export type OrderFactsView = z.infer<typeof orderFactsSchema>;

export const MISMATCH_FIELDS = ['state', 'amount', 'units', 'refunds', 'notStored'] as const;
export type MismatchField = (typeof MISMATCH_FIELDS)[number];

const common = {
  clientOrderRef: z.string(),
  platformOrderRef: z.string().nullable(),
  productName: z.string().nullable(),
  createdAt: seconds.nullable(),
};

export const reconcileDifferenceSchema = z.discriminatedUnion('kind', [
  /** (a) The merchant has it, the app never placed it: placed elsewhere with the same account. */
  z.object({ kind: z.literal('foreign'), ...common, merchant: orderFactsSchema }),
  /** (b) Both have it; state, amount, units or refunds differ (notStored: the app never stored the merchant's answer). */
  z.object({ kind: z.literal('mismatch'), ...common, fields: z.array(z.enum(MISMATCH_FIELDS)).min(1), merchant: orderFactsSchema, local: orderFactsSchema.nullable() }),
  /** (c) A completed card order whose cards at the merchant, in the vault and by units do not agree. */
  z.object({ kind: z.literal('cards'), ...common, units: z.number().int(), merchantCards: z.number().int(), vaultCards: z.number().int() }),
  /** (d) The app sent it (or does not know whether it did); GET /orders/{ref} says the merchant has no such order. */
  z.object({ kind: z.literal('notReceived'), ...common, intentStatus: z.string(), units: z.number().int() }),
]);
export type ReconcileDifference = z.infer<typeof reconcileDifferenceSchema>;
export type DifferenceKind = ReconcileDifference['kind'];

/**
 * A balance at a range boundary, from the app's own readings (GET /account answers, contract §12.1):
 * the reading it rests on, with the moment the check starts or ends at (`atMs`: the range's boundary
 * when a run of equal answers covers it, else the reading's own time). Not known when no reading
 * exists to rest on: the nearest readings either side, never a guess.
 */
export const boundaryBalanceSchema = z.discriminatedUnion('known', [
  z.object({
    known: z.literal(true),
    atMs: z.number().int(),
    balanceFen: fen,
    seenFromMs: z.number().int(),
    seenUntilMs: z.number().int(),
    /** The range's own boundary (the day's start or end), for the screen to say when the reading is off it. */
    boundaryMs: z.number().int(),
    /** Asked from the merchant for this check (GET /account), not found among earlier readings. */
    fresh: z.boolean(),
  }),
  z.object({
    known: z.literal(false),
    atMs: z.number().int(),
    before: z.object({ balanceFen: fen, lastSeenAtMs: z.number().int() }).nullable(),
    after: z.object({ balanceFen: fen, firstSeenAtMs: z.number().int() }).nullable(),
  }),
]);
export type BoundaryBalance = z.infer<typeof boundaryBalanceSchema>;

export const balanceCheckSchema = z.object({
  start: boundaryBalanceSchema,
  end: boundaryBalanceSchema,
  /** What the books say moved between the two readings (core/books/book-money.ts): charges out, refunds back. */
  chargesFen: fen,
  refundsFen: fen,
  /** refunds − charges: what the balance should have moved by. */
  expectedChangeFen: fen,
  /** end − start, when both are known. */
  actualChangeFen: fen.nullable(),
  /** actual − expected, when both boundaries are known; 0 when everything is explained. */
  unexplainedFen: fen.nullable(),
});
export type BalanceCheck = z.infer<typeof balanceCheckSchema>;

/**
 * Whether everything was checked (issue 24): the headline is "no differences" only for `clean`, i.e.
 * every order compared, no difference, and the balance checked and explained to the fen. Otherwise it
 * says which part could not be checked (`balance: notChecked`, with the side that had no reading) or differs.
 */
export const reconcileVerdictSchema = z.object({
  status: z.enum(['clean', 'differences', 'notChecked']),
  balance: z.enum(['matches', 'differs', 'notChecked']),
  /** With balance notChecked: which boundary had no reading. */
  balanceMissing: z.enum(['start', 'end']).nullable(),
});
export type ReconcileVerdict = z.infer<typeof reconcileVerdictSchema>;

export const reconcileTotalsSchema = z.object({
  /** Orders the merchant listed in the range. */
  merchantOrders: z.number().int(),
  /** Orders of the app (intents the merchant was sent) in the range. */
  appOrders: z.number().int(),
  /** Orders the merchant lists with a state the app does not know: kept raw, never counted as success. */
  unknownStates: z.number().int(),
  completed: z.number().int(),
  /** Foreign orders already recorded read-only. */
  foreignRecorded: z.number().int(),
  /** Intents not sent yet (queued, parked): not expected at the merchant. */
  notSentYet: z.number().int(),
  merchantChargedFen: fen,
  merchantRefundedFen: fen,
  /** The range's charges and refunds by the books' one definition (book-money.ts), as the spend report counts them. */
  bookChargedFen: fen,
  bookRefundedFen: fen,
  /** Completed card orders whose card count was compared with the merchant's detail. */
  cardOrdersCompared: z.number().int(),
  differences: z.number().int(),
});

export const reconcileReportSchema = z.object({
  runId: z.number().int(),
  fromDay: z.string(),
  toDay: z.string(),
  createdFrom: seconds,
  createdTo: seconds,
  finishedAtMs: z.number().int(),
  /** GET requests this run sent: list pages and order look-ups. */
  requests: z.number().int(),
  pagesRead: z.number().int(),
  /** The run was continued after an interruption. */
  resumed: z.boolean(),
  totals: reconcileTotalsSchema,
  balance: balanceCheckSchema,
  verdict: reconcileVerdictSchema,
  differences: z.array(reconcileDifferenceSchema),
});
export type ReconcileReport = z.infer<typeof reconcileReportSchema>;

export const reconcileProgressSchema = z.object({ pagesRead: z.number().int(), pageCount: z.number().int().nullable(), requests: z.number().int() });
export type ReconcileProgress = z.infer<typeof reconcileProgressSchema>;

export const reconcileExportInputSchema = z.object({ format: z.enum(['xlsx', 'csv']), language: z.enum(EXPORT_LANGUAGES).optional() });
export type ReconcileExportInput = z.infer<typeof reconcileExportInputSchema>;
