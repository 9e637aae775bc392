// Orders (contract §7.4): the order object returned by create, detail and every action, the refund
// records inside it, the delivered cards, and the order list (7.5).
import { z } from 'zod';
import { listPayloadSchema } from './envelope';
import { enumText, integerRef, nonNegativeYuanAsFen, stringRef, unixSeconds } from './wire-primitives';

/**
 * A delivered card. Both secrets must be JSON strings: a number would already have lost digits
 * (and leading zeros) in JSON.parse, so coercing one back to text could store a wrong card.
 */
export const cardSchema = z.looseObject({
  card_no: z.string(),
  card_password: z.string(),
  expiresAt: unixSeconds.nullable(),
});
export type Card = z.infer<typeof cardSchema>;

/** contract §7.4 refunds[]; `amount` holds fen after parsing. */
export const refundSchema = z.looseObject({
  refundRef: stringRef,
  clientRefundRef: z.string(),
  amount: nonNegativeYuanAsFen,
  /** see classifyRefundState */
  state: enumText,
  reason: z.string(),
  merchantNote: z.string().nullable(),
  createdAt: unixSeconds,
  resolvedAt: unixSeconds.nullable(),
});
export type Refund = z.infer<typeof refundSchema>;

/** contract §7.4. Money fields (`unitPrice`, `totalAmount`, `refundedAmount`) hold fen after parsing. */
export const orderSchema = z.looseObject({
  clientOrderRef: stringRef,
  platformOrderRef: stringRef,
  productRef: integerRef,
  variantRef: integerRef,
  productName: z.string(),
  variantTitle: z.string(),
  /** see classifyProductType */
  productType: enumText,
  units: z.int().positive(),
  unitPrice: nonNegativeYuanAsFen,
  totalAmount: nonNegativeYuanAsFen,
  refundedAmount: nonNegativeYuanAsFen,
  /** see classifyOrderState, isTerminalSuccess */
  state: enumText,
  /** Items: see classifyOrderAction; act only on what is listed exactly. */
  allowedActions: z.array(enumText),
  revision: z.int().nonnegative(),
  failureReason: z.string().nullable(),
  verificationHint: z.string().nullable(),
  createdAt: unixSeconds,
  updatedAt: unixSeconds,
  completedAt: unixSeconds.nullable(),
  orderCallbackUrl: z.string().nullable(),
  imageUrl: z.string().nullable(),
  entryCount: z.int().nonnegative(),
  refunds: z.array(refundSchema),
  card_list: z.array(cardSchema).nullable(),
});
export type Order = z.infer<typeof orderSchema>;

/** `GET /orders` (contract §7.5); items carry `card_list: null`. */
export const orderListSchema = listPayloadSchema(orderSchema);
export type OrderList = z.infer<typeof orderListSchema>;
