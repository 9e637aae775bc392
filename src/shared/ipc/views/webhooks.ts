// The webhook side's health (receiver, tunnel, live callback URL, counts), or "polling only".
import { z } from 'zod';
import { seconds } from './view-fields';

export const webhookHealthSchema = z.object({
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
export type WebhookHealthView = z.infer<typeof webhookHealthSchema>;
