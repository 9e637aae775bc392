// The webhook side's health (receiver, tunnel, live callback URL, counts), or "polling only".
import { z } from 'zod';
import { seconds } from './view-fields';

/** `polling`: no webhook side runs (a normal mode: orders are checked by polling); `webhooks`: it runs. */
export const UPDATE_MODES = ['polling', 'webhooks'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

export const webhookHealthSchema = z.object({
  mode: z.enum(UPDATE_MODES),
  receiverUp: z.boolean(),
  tunnelKind: z.string().nullable(),
  tunnelUp: z.boolean(),
  callbackUrl: z.string().nullable(),
  /** When the merchant's last new event arrived: the same events `received` counts (since the receiver started). */
  lastEventAt: seconds.nullable(),
  received: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  webhooksLive: z.boolean(),
  /**
   * Orders still followed whose webhooks go elsewhere than the current callback URL (placed with an
   * earlier address, or none; the merchant keeps an order's address): they are checked by polling.
   */
  ordersPolledElsewhere: z.number().int().nonnegative(),
});
export type WebhookHealthView = z.infer<typeof webhookHealthSchema>;
