// The audit log as the renderer sees it (audit.list), and what a row says, stored as facts (kinds and values, JSON in audit_log.detail) instead of
// sentences, so each screen words it in the buyer's language. Core writes them (vault reveal and copy,
// the export); the renderer words them (AuditLogScreen). A row written before facts existed keeps its
// English text and is shown as it was.
import { z } from 'zod';
import { merchantTagSchema, profileFilterField, profileIdSchema } from './profiles';
import { CARD_REFUND_MARKS, EXPORT_FORMATS, EXPORT_TXT_LINES } from './vault';
import { seconds } from './view-fields';

/** How an order is named to the buyer: the merchant's number, else its product (not yet numbered). */
export const auditOrderNameSchema = z.object({
  platformOrderRef: z.string().nullable(),
  productName: z.string().nullable(),
  productRef: z.number().int().nullable(),
});
export type AuditOrderName = z.infer<typeof auditOrderNameSchema>;

/** A card as the vault names it: its order and its seq (shown as #seq+1, shared/card-number.ts). */
export const auditCardNameSchema = z.object({ order: auditOrderNameSchema, seq: z.number().int().nonnegative() });
export type AuditCardName = z.infer<typeof auditCardNameSchema>;

/** At most this many picked cards are named in an export's row; the rest are counted. */
export const AUDIT_NAMED_CARDS = 5;

/** What the row is about: one card, an order's cards, or an export's selection. */
export const auditSubjectSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('card'), card: auditCardNameSchema }),
  z.object({ kind: z.literal('order'), order: auditOrderNameSchema }),
  z.object({ kind: z.literal('cards'), cards: z.array(auditCardNameSchema).max(AUDIT_NAMED_CARDS), more: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('product'), productRef: z.number().int() }),
  z.object({ kind: z.literal('dateRange'), from: z.number().int(), to: z.number().int() }),
  z.object({ kind: z.literal('notExported') }),
]);
export type AuditSubject = z.infer<typeof auditSubjectSchema>;

export const AUDIT_FACTS_VERSION = 1;

export const auditFactsSchema = z.object({
  v: z.literal(AUDIT_FACTS_VERSION),
  subject: auditSubjectSchema,
  /** A copy: which field went to the clipboard. */
  copied: z.enum(['cardNo', 'cardPassword']).optional(),
  /** A reveal of every card of an order at once. */
  allCards: z.boolean().optional(),
  /** An export: the file's format (its protection) and where it went: saved at a path, or downloaded by the browser as a file name. */
  exportFormat: z.enum(EXPORT_FORMATS).optional(),
  /** A TXT export (plain, or inside the ZIP): what each line held. */
  txtLines: z.enum(EXPORT_TXT_LINES).optional(),
  writtenTo: z.string().optional(),
  /** An export handed to the browser as a one-time download (the web host): the file's name; the host's staging folder is never kept. */
  downloadedAs: z.string().optional(),
  /** The buyer was told the cards belong to a refunded or cancelled order and went on: its mark, or (export) how many cards. */
  refundAcknowledged: z.union([z.object({ mark: z.enum(CARD_REFUND_MARKS) }), z.object({ count: z.number().int().nonnegative() })]).optional(),
});
export type AuditFacts = z.infer<typeof auditFactsSchema>;

/** The facts of a stored detail, or null for a row written as text (before facts existed) or damaged. */
export function parseAuditFacts(detail: string | null): AuditFacts | null {
  if (detail === null || !detail.startsWith('{')) return null;
  try {
    const parsed = auditFactsSchema.safeParse(JSON.parse(detail));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const AUDIT_ACTIONS = ['reveal', 'copy', 'export'] as const;

/** How an older row's text (before facts) says the buyer went on with cards of a refunded or cancelled order. */
export const AUDIT_REFUND_ACKNOWLEDGED = 'acknowledged by the buyer';

export const auditQuerySchema = z.object({
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** Entries with id below this (paging backwards, newest first). */
  beforeId: z.number().int().positive().optional(),
  /** Paging over every profile: per profile, its entries with id below this (ids are per profile). */
  beforeIds: z.record(profileIdSchema, z.number().int().positive()).optional(),
  limit: z.number().int().min(1).max(500),
  /** One merchant's entries only; absent: every profile's (contract §15.2). */
  profile: profileFilterField,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: seconds,
  /** Raw: reveal, copy, export (older or newer builds may have written others). */
  action: z.string(),
  /** A reference (order#seq, a selection's description), never a secret. */
  subject: z.string(),
  cardCount: z.number().int(),
  format: z.string().nullable(),
  /** The row's text as written before facts existed (null for a row with facts). */
  detail: z.string().nullable(),
  /** What the row says, for the screen to word in the buyer's language (null for an older row). */
  facts: auditFactsSchema.nullable(),
  /** The entry's merchant, in the log over every profile (contract §15.2). */
  merchant: merchantTagSchema.optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
