// The buyer's books on screen: the spend report (the dashboard and `cli report spend` show the same
// one, core/books/spend-report.ts) and the export of one chart's data. Money is fen; days are the
// buyer's local days ("YYYY-MM-DD" in the time zone the query names, contract §12.3).
import { z } from 'zod';
import { EXPORT_LANGUAGES } from './vault';

export const SPEND_DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** The longest range one report covers: a year and a day (a leap year's worth of days). */
export const MAX_SPEND_RANGE_DAYS = 366;

const day = z.string().regex(SPEND_DAY_PATTERN);
const count = z.number().int().nonnegative();
const fen = z.number().int();

export const SPEND_PRODUCT_TYPES = ['card', 'topup'] as const;

export const spendQuerySchema = z.object({
  /** First and last day of the range, both included. */
  from: day,
  to: day,
  /** An IANA time zone ("Asia/Shanghai"): whose days these are. */
  timeZone: z.string().min(1).max(64),
  /** Only orders of products in this category (the catalog's catalogRef); absent: every category. */
  catalogRef: z.number().int().nonnegative().optional(),
  productRef: z.number().int().positive().optional(),
  productType: z.enum(SPEND_PRODUCT_TYPES).optional(),
});
export type SpendQuery = z.infer<typeof spendQuerySchema>;

/** Money of a set of orders: charged when accepted, refunded (failures, cancels, refunds), net = charged − refunded. */
const moneyFields = { orders: count, chargedFen: fen, refundedFen: fen, netFen: fen };

export const spendDaySchema = z.object({
  day,
  ...moneyFields,
  completed: count,
  /** Failed, cancelled or refunded in full: known states that are not a success. */
  unsuccessful: count,
  /** States this app does not know: never counted as a success, kept apart. */
  unknownState: count,
  /** Median seconds from the order's creation to its completion, over that day's completed orders. */
  medianDeliverySeconds: z.number().nonnegative().nullable(),
});
export type SpendDay = z.infer<typeof spendDaySchema>;

export const spendTotalsSchema = z.object({
  ...moneyFields,
  completed: count,
  unsuccessful: count,
  /** Pending, processing or verifying: not yet settled, so outside the success rate. */
  inProgress: count,
  unknownState: count,
  /** completed / (completed + unsuccessful); null when nothing settled. Unknown states count in neither. */
  successRate: z.number().min(0).max(1).nullable(),
  medianDeliverySeconds: z.number().nonnegative().nullable(),
});
export type SpendTotals = z.infer<typeof spendTotalsSchema>;

export const spendGroupSchema = z.object({
  /** catalogRef or productRef; null: orders whose product is not in the catalog cache (category unknown). */
  key: z.number().int().nullable(),
  /** The merchant's name, as cached; null when unknown. */
  name: z.string().nullable(),
  ...moneyFields,
});
export type SpendGroup = z.infer<typeof spendGroupSchema>;

/** A run of equal balances as observed (balance history, contract §12.1); between runs nobody saw it. */
export const balanceRunSchema = z.object({ fromMs: z.number().int(), toMs: z.number().int(), balanceFen: fen, currency: z.string() });
export type BalanceRun = z.infer<typeof balanceRunSchema>;

export const spendChoiceSchema = z.object({ key: z.number().int(), name: z.string().nullable() });

export const spendReportSchema = z.object({
  query: spendQuerySchema,
  /** The range as instants: [fromMs, toMs) from the first day's local midnight to the day after the last. */
  fromMs: z.number().int(),
  toMs: z.number().int(),
  totals: spendTotalsSchema,
  days: z.array(spendDaySchema),
  byCategory: z.array(spendGroupSchema),
  byProduct: z.array(spendGroupSchema),
  balance: z.array(balanceRunSchema),
  /** What the filters can pick: the categories and products of the range's orders, whatever is filtered. */
  choices: z.object({ categories: z.array(spendChoiceSchema), products: z.array(spendChoiceSchema) }),
});
export type SpendReport = z.infer<typeof spendReportSchema>;

/** How a spend export's file name starts: the desktop's save dialog words itself by it (not card codes). */
export const SPEND_EXPORT_FILE_PREFIX = 'procure-desk-spend-';

export const SPEND_CHARTS = ['days', 'categories', 'products', 'outcomes', 'delivery', 'balance'] as const;
export type SpendChart = (typeof SPEND_CHARTS)[number];

export const spendExportInputSchema = z.object({
  query: spendQuerySchema,
  chart: z.enum(SPEND_CHARTS),
  format: z.enum(['csv', 'xlsx']),
  language: z.enum(EXPORT_LANGUAGES).optional(),
});
export type SpendExportInput = z.infer<typeof spendExportInputSchema>;
