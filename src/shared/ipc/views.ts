// What the renderer sees of core: plain data, money in integer fen, merchant enum values raw (the UI
// classifies them with shared/merchant/known-values and shows unknown ones as unknown). No view ever
// carries the API key or a card secret; the only exception is RevealedCard, returned by an explicit,
// audited reveal.
import { z } from 'zod';
import { DRAFT_REF_PATTERN } from '../refs';

const fen = z.number().int();
const seconds = z.number().int();

export const connectionStatusSchema = z.object({
  connected: z.boolean(),
  baseUrl: z.string().nullable(),
  userId: z.string().nullable(),
  /** Whether a key is stored, never the key. */
  keyStored: z.boolean(),
  /** Where secrets are kept: 'safe-storage', 'memory' (weaker backend refused), 'passphrase-file'. */
  secretStore: z.string(),
  /** Present and true when this host can move memory-only secrets into a passphrase file (the desktop app). */
  passphraseFileOffered: z.boolean().optional(),
  /** The built-in demo merchant (the sandbox) is the one connected. */
  demo: z.boolean(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

export const accountViewSchema = z.object({
  accountRef: z.number().int(),
  userId: z.string(),
  nickname: z.string(),
  accessState: z.string(),
  balanceFen: fen,
  currency: z.string(),
});
export type AccountView = z.infer<typeof accountViewSchema>;

export const categoryViewSchema = z.object({
  catalogRef: z.number().int(),
  name: z.string(),
  parentRef: z.number().int().nullable(),
  productCount: z.number().int(),
});
export type CategoryView = z.infer<typeof categoryViewSchema>;

export const productHitSchema = z.object({
  productRef: z.number().int(),
  catalogRef: z.number().int(),
  name: z.string(),
  productType: z.string(),
  availability: z.string(),
  brandName: z.string().nullable(),
  imageUrl: z.string().nullable(),
  priceFromFen: fen.nullable(),
  variantCount: z.number().int(),
  inStock: z.boolean(),
});
export type ProductHit = z.infer<typeof productHitSchema>;

export const searchQuerySchema = z.object({
  text: z.string().max(200).optional(),
  catalogRef: z.number().int().positive().optional(),
  availability: z.string().max(40).optional(),
  inStock: z.boolean().optional(),
  minPriceFen: fen.nonnegative().optional(),
  maxPriceFen: fen.nonnegative().optional(),
  sort: z.enum(['relevance', 'priceAsc', 'priceDesc', 'nameAsc', 'recentlyChanged']).optional(),
  limit: z.number().int().min(1).max(200).optional(),
  offset: z.number().int().nonnegative().optional(),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchResultSchema = z.object({
  total: z.number().int(),
  /** More matched than were counted: show "10,000+". */
  totalIsLowerBound: z.boolean(),
  items: z.array(productHitSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const variantViewSchema = z.object({
  variantRef: z.number().int(),
  title: z.string(),
  priceFen: fen,
  faceValueFen: fen.nullable(),
  availability: z.string(),
  inventoryType: z.string(),
  remainingUnits: z.number().int().nullable(),
});

export const productViewSchema = z.object({
  productRef: z.number().int(),
  catalogRef: z.number().int(),
  name: z.string(),
  productType: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  availability: z.string(),
  brand: z.object({ brandRef: z.number().int(), name: z.string(), imageUrl: z.string().nullable() }).nullable(),
  variants: z.array(variantViewSchema),
  watched: z.boolean(),
  syncedAt: seconds.nullable(),
});
export type ProductView = z.infer<typeof productViewSchema>;

export const pricePointSchema = z.object({
  priceFen: fen,
  remainingUnits: z.number().int().nullable(),
  availability: z.string(),
  recordedAt: seconds,
});
export type PricePoint = z.infer<typeof pricePointSchema>;

export const purchaseFieldViewSchema = z.object({
  fieldRef: z.string(),
  label: z.string(),
  type: z.string(),
  required: z.boolean(),
  pattern: z.string().nullable(),
  minLength: z.number().int().nullable(),
  maxLength: z.number().int().nullable(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
  placeholder: z.string().nullable(),
  sensitive: z.boolean(),
});

export const templateViewSchema = z.object({
  productRef: z.number().int(),
  variantRef: z.number().int(),
  productType: z.string(),
  purchaseSchemaRevision: z.number().int(),
  entryMode: z.string(),
  purchaseFields: z.array(purchaseFieldViewSchema),
  unitRule: z.object({ min: z.number().int(), max: z.number().int(), step: z.number().int() }),
});
export type TemplateView = z.infer<typeof templateViewSchema>;

export const placeOrderInputSchema = z.object({
  productRef: z.number().int().positive(),
  variantRef: z.number().int().nonnegative(),
  units: z.number().int().positive().max(100_000),
  purchaseEntries: z.array(z.record(z.string().max(64), z.string().max(512))).max(1000).optional(),
  /** The unit price (fen) the screen showed and the buyer confirmed; the price guard holds the merchant to it. */
  unitPriceFen: z.number().int().positive().max(100_000_000),
  /** The review step's reference for this confirmation: placing it again answers the same order (0014). */
  draftRef: z.string().regex(DRAFT_REF_PATTERN).optional(),
});
export type PlaceOrderInput = z.infer<typeof placeOrderInputSchema>;

export const orderRowSchema = z.object({
  clientOrderRef: z.string(),
  /**
   * Our side: queued, sending, unknown, accepted, rejected, needs_confirmation, withdrawn,
   * price_changed (the guard read a higher price: confirm again or withdraw), unavailable (the guard
   * found it cannot be supplied), withdrawing (withdrawn while its outcome was unknown; being checked),
   * needs_key (the merchant refused the API key, 401001), account_suspended (403005), access_denied
   * (403002 or another 403): kept, and sent by themselves once access works again.
   */
  intentStatus: z.string(),
  /** The merchant's state, raw; null until the merchant has the order. */
  state: z.string().nullable(),
  platformOrderRef: z.string().nullable(),
  productRef: z.number().int(),
  variantRef: z.number().int(),
  productName: z.string().nullable(),
  variantTitle: z.string().nullable(),
  units: z.number().int(),
  totalFen: fen.nullable(),
  refundedFen: fen.nullable(),
  allowedActions: z.array(z.string()),
  lastErrorCode: z.string().nullable(),
  createdAt: seconds,
  updatedAt: seconds,
  /** The unit price the buyer confirmed (null only for orders placed before the price guard). */
  confirmedUnitPriceFen: fen.nullable(),
  /** The top-up account, masked (`138****8000`, ` +N` for more groups), as in rechargedEntries; null without entries. */
  rechargedAccountMasked: z.string().nullable(),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

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
export type VaultKeyStatus = z.infer<typeof vaultKeyStatusSchema>;

export const refundViewSchema = z.object({
  refundRef: z.string().nullable(),
  clientRefundRef: z.string().nullable(),
  amountFen: fen,
  state: z.string(),
  reason: z.string().nullable(),
  merchantNote: z.string().nullable(),
  createdAt: seconds.nullable(),
  resolvedAt: seconds.nullable(),
});

/** One value of a recharged entry group; `label` from the cached template, the fieldRef when unknown. */
export const rechargedEntrySchema = z.object({ fieldRef: z.string(), label: z.string(), value: z.string() });

export const orderDetailSchema = orderRowSchema.extend({
  /** The merchant's unit price, once it answered; before that see confirmedUnitPriceFen. */
  unitPriceFen: fen.nullable(),
  /** confirmedUnitPriceFen × units: the total the buyer confirmed, shown while the merchant has not answered. */
  confirmedTotalFen: fen.nullable(),
  /** The price the guard read when it parked the intent as price_changed (old and new side by side). */
  guardUnitPriceFen: fen.nullable(),
  /** Why the guard parked it as unavailable: productUnavailable, variantUnavailable, variantGone, outOfStock. */
  unavailableReason: z.string().nullable(),
  /**
   * The top-up account(s) in full, one array per entry group: as they will be sent until the merchant
   * accepts, then as recharged (kept sealed at rest); null without top-up entries.
   */
  rechargedEntries: z.array(z.array(rechargedEntrySchema)).nullable(),
  failureReason: z.string().nullable(),
  verificationHint: z.string().nullable(),
  lastErrorMessage: z.string().nullable(),
  lastRequestId: z.string().nullable(),
  /** The merchant's requestId of every attempt made for this order (creates and look-ups), oldest first, for support. */
  requestIds: z.array(z.string()),
  completedAt: seconds.nullable(),
  refunds: z.array(refundViewSchema),
  cards: z.array(maskedCardSchema),
  /** The merchant states the order was seen in, in the merchant's order (its revisions), with its times. */
  stateHistory: z.array(z.object({ state: z.string(), at: seconds })),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** What orders.withdraw did (OrderOutbox.withdraw): withdrawn, checking (outcome being looked up), merchantHasOrder. */
export const withdrawResultSchema = z.object({
  outcome: z.enum(['withdrawn', 'checking', 'merchantHasOrder']),
  order: orderDetailSchema,
});
export type WithdrawResult = z.infer<typeof withdrawResultSchema>;

export const revealedCardSchema = z.object({
  seq: z.number().int(),
  cardNo: z.string(),
  cardPassword: z.string().nullable(),
  expiresAt: seconds.nullable(),
});
export type RevealedCard = z.infer<typeof revealedCardSchema>;

export const syncProgressSchema = z.object({
  phase: z.string(),
  done: z.number().int(),
  total: z.number().int().nullable(),
  etaMs: z.number().nullable(),
});
export type SyncProgressView = z.infer<typeof syncProgressSchema>;

export const syncStatusSchema = z.object({
  running: z.boolean(),
  phase: z.string().nullable(),
  lastSyncedAt: seconds.nullable(),
  lastError: z.string().nullable(),
  products: z.number().int(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

export const eventsHealthSchema = z.object({
  receiverUp: z.boolean(),
  tunnelKind: z.string().nullable(),
  tunnelUp: z.boolean(),
  callbackUrl: z.string().nullable(),
  lastEventAt: seconds.nullable(),
  received: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  webhooksLive: z.boolean(),
});
export type EventsHealthView = z.infer<typeof eventsHealthSchema>;

export const settingsSchema = z.object({
  language: z.enum(['system', 'zh-CN', 'en']),
  theme: z.enum(['system', 'light', 'dark']),
  /** Off: polling only. Otherwise the tunnel spec of the CLI's --tunnel. */
  webhookTunnel: z.string().max(2100),
  webhookPort: z.number().int().min(0).max(65535),
  /**
   * Something the buyer should know about the webhook choice: 'localtunnelRetired' when a stored
   * localtunnel choice was turned into polling at start-up. Cleared by choosing again.
   */
  webhookNotice: z.enum(['none', 'localtunnelRetired']),
});
export type Settings = z.infer<typeof settingsSchema>;

export const notificationSchema = z.object({
  kind: z.enum(['orderCompleted', 'orderFailed', 'credentialsReady', 'productChanged', 'lowBalance', 'aftersaleReply']),
  title: z.string(),
  body: z.string(),
  clientOrderRef: z.string().optional(),
  /** The merchant's order number: how the notification names the order (null: not yet numbered). */
  platformOrderRef: z.string().nullable().optional(),
  productRef: z.number().int().optional(),
  platformCaseRef: z.string().optional(),
  // The facts a display words in the buyer's language (shared/notification-text.ts); title and body
  // are the service's English wording, for logs and the CLI.
  productName: z.string().nullable().optional(),
  cards: z.number().int().optional(),
  balanceFen: fen.optional(),
  currency: z.string().optional(),
  priceFromFen: fen.nullable().optional(),
  preview: z.string().nullable().optional(),
  images: z.number().int().optional(),
});
export type NotificationView = z.infer<typeof notificationSchema>;
