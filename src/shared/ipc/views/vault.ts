// The card vault's list, selections, export and audit log as the renderer sees them. No view here
// carries a card secret: card numbers are masked, and an export answers where it wrote, not what. The
// one exception is RevealedCard, returned by an explicit, audited reveal.
import { z } from 'zod';
import { merchantTagSchema, profileFilterField } from './profiles';
import { CLIENT_REF_PATTERN } from '../../refs';
import { fen, seconds } from './view-fields';

const orderRef = z.string().regex(CLIENT_REF_PATTERN);

/**
 * A card's order the merchant took money back for: `refunded` (in full) or `cancelled` (the order's
 * state, from the authenticated order detail), or `partlyRefunded` (completed, some money back). Such
 * a card may no longer be honoured, so it is marked, and revealing, copying or exporting it needs
 * the buyer's explicit acknowledgement (core refuses with REFUND_ACK_REQUIRED without it).
 */
export const CARD_REFUND_MARKS = ['refunded', 'cancelled', 'partlyRefunded'] as const;
export type CardRefundMark = (typeof CARD_REFUND_MARKS)[number];

/** The vault's refund filter: `valid` (no mark) or `refunded` (any mark); absent: every card. */
export const VAULT_REFUND_FILTERS = ['valid', 'refunded'] as const;
export type VaultRefundFilter = (typeof VAULT_REFUND_FILTERS)[number];

export const cardKeySchema = z.object({ clientOrderRef: orderRef, seq: z.number().int().nonnegative() });
export type CardKey = z.infer<typeof cardKeySchema>;

/** At most this many cards in one explicit selection (a whole order or range has no limit). */
export const MAX_SELECTED_CARDS = 20_000;

/** What to act on: picked cards, one order, one product, a date range (received), or not yet exported. */
export const cardSelectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cards'), cards: z.array(cardKeySchema).min(1).max(MAX_SELECTED_CARDS) }),
  z.object({ kind: z.literal('order'), clientOrderRef: orderRef }),
  z.object({ kind: z.literal('product'), productRef: z.number().int().positive() }),
  /** Cards received at `from` ≤ receivedAt < `to` (Unix seconds; the screen sends whole local days). */
  z.object({ kind: z.literal('dateRange'), from: seconds, to: seconds }),
  z.object({ kind: z.literal('notExported') }),
]);
export type CardSelection = z.infer<typeof cardSelectionSchema>;

export const vaultListQuerySchema = z.object({
  /** Narrows the list the same way an export selection does; absent: every card. */
  selection: cardSelectionSchema.optional(),
  /** Free text over product and variant name and order ref (never over secrets). */
  text: z.string().max(100).optional(),
  used: z.boolean().optional(),
  /** true: only cards exported before; false: only cards never exported (combinable with any selection). */
  exported: z.boolean().optional(),
  refund: z.enum(VAULT_REFUND_FILTERS).optional(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(500),
  /** One merchant's cards only; absent: every profile's (contract §15.2). */
  profile: profileFilterField,
});
export type VaultListQuery = z.infer<typeof vaultListQuerySchema>;

export const vaultCardRowSchema = z.object({
  clientOrderRef: z.string(),
  /** The merchant's order number, the one the buyer knows (null only before the merchant answered). */
  platformOrderRef: z.string().nullable(),
  seq: z.number().int(),
  productRef: z.number().int(),
  productName: z.string().nullable(),
  variantTitle: z.string().nullable(),
  cardNoMasked: z.string(),
  hasPassword: z.boolean(),
  /** What one card cost: the order's unit price. */
  priceFen: fen.nullable(),
  orderedAt: seconds.nullable(),
  expiresAt: seconds.nullable(),
  receivedAt: seconds,
  usedAt: seconds.nullable(),
  exportedAt: seconds.nullable(),
  refundMark: z.enum(CARD_REFUND_MARKS).nullable(),
  /** The card's merchant, in the list over every profile (contract §15.2). */
  merchant: merchantTagSchema.optional(),
});
export type VaultCardRow = z.infer<typeof vaultCardRowSchema>;

export const vaultListSchema = z.object({ total: z.number().int().nonnegative(), rows: z.array(vaultCardRowSchema) });
export type VaultList = z.infer<typeof vaultListSchema>;

export const exportPreviewSchema = z.object({
  count: z.number().int().nonnegative(),
  totalValueFen: fen,
  orders: z.number().int().nonnegative(),
  alreadyExported: z.number().int().nonnegative(),
  /** Cards of refunded or cancelled (or partly refunded) orders in the selection. */
  refunded: z.number().int().nonnegative(),
});
export type ExportPreview = z.infer<typeof exportPreviewSchema>;

/** xlsx and zip are encrypted with the password; csv and txt are plain text (the buyer accepts the risk). */
export const EXPORT_FORMATS = ['xlsx', 'zip', 'csv', 'txt'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What each line of a TXT export holds (a shop's import format): the card number, or `卡号 卡密` (one space between). */
export const EXPORT_TXT_LINES = ['cardNo', 'cardNoPassword'] as const;
export type ExportTxtLines = (typeof EXPORT_TXT_LINES)[number];

/** The language of the file's column headers and sheet name (the UI's); Chinese when absent. */
export const EXPORT_LANGUAGES = ['zh-CN', 'en'] as const;
export type ExportLanguage = (typeof EXPORT_LANGUAGES)[number];

export const exportInputSchema = z.object({
  selection: cardSelectionSchema,
  format: z.enum(EXPORT_FORMATS),
  language: z.enum(EXPORT_LANGUAGES).optional(),
  /** xlsx and zip: typed twice, checked for strength in main too; never stored or logged. */
  password: z.string().max(256).optional(),
  passwordConfirm: z.string().max(256).optional(),
  /** csv and txt only: the buyer confirmed that the file holds card codes in plain text. */
  acceptPlainText: z.boolean().optional(),
  /** txt (required) and zip (optional: the ZIP then holds this TXT instead of the CSV): what each line holds. */
  txtLines: z.enum(EXPORT_TXT_LINES).optional(),
  /** The buyer was told the selection holds cards of refunded or cancelled orders and goes on. */
  acknowledgeRefunded: z.boolean().optional(),
});
export type ExportInput = z.infer<typeof exportInputSchema>;

export const exportResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('written'),
    /** Where the desktop app saved it; in the web host, the file name (the file left the host as a download). */
    path: z.string(),
    fileName: z.string(),
    count: z.number().int(),
    format: z.enum(EXPORT_FORMATS),
    /**
     * Web host only: the one-time, session-bound address (same origin) the tab downloads the file from
     * at once; the host deletes its copy when it is fetched or when the address expires.
     */
    downloadUrl: z.string().max(200).optional(),
  }),
  /** The buyer closed the save dialog: nothing written, nothing marked, nothing audited as exported. */
  z.object({ status: z.literal('cancelled') }),
]);
export type ExportResult = z.infer<typeof exportResultSchema>;

export const markCardsInputSchema = z.object({
  cards: z.array(cardKeySchema).min(1).max(MAX_SELECTED_CARDS),
  flag: z.enum(['used', 'exported']),
  value: z.boolean(),
});
export type MarkCardsInput = z.infer<typeof markCardsInputSchema>;

export const maskedCardSchema = z.object({
  seq: z.number().int(),
  cardNoMasked: z.string(),
  hasPassword: z.boolean(),
  expiresAt: seconds.nullable(),
  receivedAt: seconds,
  usedAt: seconds.nullable(),
  exportedAt: seconds.nullable(),
});
export type MaskedCardView = z.infer<typeof maskedCardSchema>;

/** Whether the vault's data key is missing from the secret store (the vault is locked until restored or replaced). */
export const vaultKeyStatusSchema = z.object({ missing: z.boolean() });

export const revealedCardSchema = z.object({
  seq: z.number().int(),
  cardNo: z.string(),
  cardPassword: z.string().nullable(),
  expiresAt: seconds.nullable(),
});
export type RevealedCard = z.infer<typeof revealedCardSchema>;
