// After-sales cases as the renderer sees them (contract §9): the merchant's case state and
// categories raw (unknown ones shown as unknown), our own delivery state per buyer message (the
// outbox: pending until the first send, retrying after a failure, failed when the merchant refused).
import { z } from 'zod';
import { merchantTagSchema, profileFilterField } from './profiles';
import { CLIENT_REF_PATTERN } from '../../refs';
import { seconds } from './view-fields';

const caseRef = z.string().regex(CLIENT_REF_PATTERN);
const orderRef = z.string().regex(CLIENT_REF_PATTERN);

/** Contract §9.1 categories; the merchant may add more, so answers keep them raw. */
export const AFTERSALE_CATEGORIES = ['cardInvalid', 'cardUsed', 'notReceived', 'wrongAmount', 'other'] as const;

/** Contract §9.1/9.2 limits, checked before anything is sent. */
export const AFTERSALE_LIMITS = { descriptionMax: 500, messageTextMax: 1000, imagesMax: 5, imageUrlMax: 2048 } as const;

export const caseDeliverySchema = z.enum(['sent', 'pending', 'retrying', 'failed']);
export type CaseDelivery = z.infer<typeof caseDeliverySchema>;

export const caseMessageViewSchema = z.object({
  /** Stable key for lists: the merchant's messageRef once known, else our clientMessageRef. */
  key: z.string(),
  messageRef: z.string().nullable(),
  clientMessageRef: z.string().nullable(),
  /** Raw: 'buyer' or 'merchant' per contract §9.3. */
  sender: z.string(),
  text: z.string(),
  images: z.array(z.string()),
  /** The merchant's time once sent; our queueing time while pending. */
  createdAt: seconds,
  delivery: caseDeliverySchema,
  /** Why the last send failed (retrying or failed), in words; never a secret. */
  lastError: z.string().nullable(),
  /**
   * The same reason as a code the UI translates: the merchant's (e.g. "409104") or ours (TRANSPORT,
   * TIMEOUT, PROTOCOL, INTERRUPTED, LOCAL). Null while nothing failed.
   */
  lastErrorCode: z.string().nullable(),
  nextAttemptAt: seconds.nullable(),
});
export type CaseMessageView = z.infer<typeof caseMessageViewSchema>;

export const caseRowSchema = z.object({
  platformCaseRef: z.string(),
  clientOrderRef: z.string(),
  /** The merchant's order number: how the case's order is named (a case exists only for a numbered order). */
  platformOrderRef: z.string(),
  productName: z.string().nullable(),
  category: z.string(),
  description: z.string(),
  /** Raw merchant state: open, replied, resolved, closed, or something new (shown as unknown). */
  state: z.string(),
  createdAt: seconds,
  updatedAt: seconds,
  lastMessageAt: seconds.nullable(),
  lastMessagePreview: z.string().nullable(),
  /** Merchant messages not yet seen in the chat view. */
  unread: z.number().int().nonnegative(),
  /** Buyer messages not yet accepted by the merchant. */
  unsent: z.number().int().nonnegative(),
  /** The case's merchant, in the list over every profile (contract §15.2). */
  merchant: merchantTagSchema.optional(),
});
export type CaseRow = z.infer<typeof caseRowSchema>;

export const caseDetailSchema = caseRowSchema.extend({
  images: z.array(z.string()),
  allowedActions: z.array(z.string()),
  messages: z.array(caseMessageViewSchema),
  fetchedAt: seconds,
});
export type CaseDetail = z.infer<typeof caseDetailSchema>;

const imageList = z.array(z.string().max(AFTERSALE_LIMITS.imageUrlMax)).max(AFTERSALE_LIMITS.imagesMax);

export const openCaseInputSchema = z.object({
  clientOrderRef: orderRef,
  category: z.enum(AFTERSALE_CATEGORIES),
  description: z.string().max(AFTERSALE_LIMITS.descriptionMax * 2),
  images: imageList,
});
export type OpenCaseInput = z.infer<typeof openCaseInputSchema>;

export const sendCaseMessageInputSchema = z.object({
  platformCaseRef: caseRef,
  text: z.string().max(AFTERSALE_LIMITS.messageTextMax * 2),
  images: imageList,
});
export type SendCaseMessageInput = z.infer<typeof sendCaseMessageInputSchema>;

export const caseListQuerySchema = z.object({
  /** 'active' = not resolved or closed (unknown states included: never taken for done); 'done' = resolved or closed; otherwise one raw state. */
  state: z.string().max(40).optional(),
  clientOrderRef: orderRef.optional(),
  unreadOnly: z.boolean().optional(),
  /** One merchant's cases only; absent: every profile's (contract §15.2). */
  profile: profileFilterField,
});
export type CaseListQuery = z.infer<typeof caseListQuerySchema>;

/** Every stored case by its order (unread 0 included, so an order knows it has a case), newest case first per order. */
export const unreadSummarySchema = z.object({
  total: z.number().int().nonnegative(),
  byOrder: z.array(z.object({ clientOrderRef: z.string(), platformCaseRef: z.string(), unread: z.number().int().nonnegative() })),
});
export type UnreadSummary = z.infer<typeof unreadSummarySchema>;

export const caseRefInputSchema = z.object({ platformCaseRef: caseRef });
