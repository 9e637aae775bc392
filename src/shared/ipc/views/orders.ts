// Orders as the renderer sees them: the buyer's confirmed input, our intent status beside the merchant's
// raw state, refunds, and the masked cards of an order (never a card secret).
import { z } from 'zod';
import { merchantTagSchema } from './profiles';
import { DRAFT_REF_PATTERN } from '../../refs';
import { fen, seconds } from './view-fields';
import { maskedCardSchema } from './vault';

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

/**
 * A value picked from a template's options as the buyer reads it (contract §7.11): its label, kept with the
 * order (or, for an order kept before labels were, from the cached template); when neither knows the
 * option, `label` is null and `merchantCode` the code the merchant was sent, shown as the merchant's code.
 */
export const pickedOptionSchema = z.object({ fieldRef: z.string(), label: z.string().nullable(), merchantCode: z.string().nullable() });
export type PickedOption = z.infer<typeof pickedOptionSchema>;

export const orderRowSchema = z.object({
  clientOrderRef: z.string(),
  /**
   * Our side: queued, sending, unknown, accepted, rejected, needs_confirmation, withdrawn,
   * price_changed (the guard read a higher price: confirm again or withdraw), unavailable (the guard
   * found it cannot be supplied), withdrawing (withdrawn while its outcome was unknown; being checked),
   * needs_key (the merchant refused the API key, 401001), account_suspended (403005), access_denied
   * (403002 or another 403): kept, and sent by themselves once access works again; merchant_failing
   * (the merchant answered 500 too often, contract §7.12): kept, nothing sent until the buyer retries.
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
  /** The merchant's refundedAmount: succeeded refunds (and the automatic refund of a failed or cancelled order). */
  refundedFen: fen.nullable(),
  /**
   * Refunds asked and not decided (contract §7.3 `pending`; our request on its way or accepted and not
   * yet in the merchant's detail), fen; 0 when none. Shown as "refund in progress" from the moment it is recorded.
   */
  refundPendingFen: fen,
  /** Refund states this build does not know, raw: shown as they are, never as money back. */
  refundUnknownStates: z.array(z.string()),
  allowedActions: z.array(z.string()),
  lastErrorCode: z.string().nullable(),
  createdAt: seconds,
  updatedAt: seconds,
  /** The unit price the buyer confirmed (null only for orders placed before the price guard). */
  confirmedUnitPriceFen: fen.nullable(),
  /**
   * The top-up account of the first entry group, masked (`138****8000`, `+N` for more groups); the values
   * picked from the template's options are not in it (they are in pickedOptions). Null without entries.
   */
  rechargedAccountMasked: z.string().nullable(),
  /** The options picked in the first entry group, by label (contract §7.11: shown whole, never masked). */
  pickedOptions: z.array(pickedOptionSchema),
  /** The row's merchant, in lists that span every profile (contract §15.2). */
  merchant: merchantTagSchema.optional(),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

/** One refund of an order: recorded from the merchant's detail (refundRef), or our request it does not list yet (refundRef null). */
export const refundViewSchema = z.object({
  refundRef: z.string().nullable(),
  clientRefundRef: z.string().nullable(),
  amountFen: fen,
  state: z.string(),
  reason: z.string().nullable(),
  merchantNote: z.string().nullable(),
  /** Our request refused when it was sent: the merchant's code (worded like any merchant error), else null. */
  requestErrorCode: z.string().nullable(),
  createdAt: seconds.nullable(),
  resolvedAt: seconds.nullable(),
});

export type RefundView = z.infer<typeof refundViewSchema>;

/**
 * One value of a recharged entry group. `label` is the field's (from the cached template, the fieldRef when
 * unknown); `value` is exactly what is sent (for a picked option, the merchant's code: the panels that
 * confirm an order again send it back); `picked` is set for a value picked from the options.
 */
export const rechargedEntrySchema = z.object({ fieldRef: z.string(), label: z.string(), value: z.string(), picked: pickedOptionSchema.nullable() });
export type RechargedEntry = z.infer<typeof rechargedEntrySchema>;

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
  /** The merchant's 500 answers this order met since placed or last retried (contract §7.12; the ceiling is the status merchant_failing). */
  serverFailures: z.number().int().nonnegative(),
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

/** Orders still in flight (contract §17.2): not yet sent (queued, needs_template), or sent with the outcome not yet known. */
export const inFlightOrdersSchema = z.object({
  notSent: z.number().int().nonnegative(),
  awaitingAnswer: z.number().int().nonnegative(),
});
export type InFlightOrders = z.infer<typeof inFlightOrdersSchema>;
