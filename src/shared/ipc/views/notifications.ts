// A notification pushed to the renderer: the facts it words in the buyer's language, plus an English
// title and body for logs and the CLI.
import { z } from 'zod';
import { merchantTagSchema } from './profiles';
import { fen } from './view-fields';

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
  /** Which merchant it is about, once the buyer has more than one (contract §15.2). */
  merchant: merchantTagSchema.optional(),
});
export type NotificationView = z.infer<typeof notificationSchema>;
