// `POST /goods/subscriptions` response (contract §6).
import { z } from 'zod';
import { enumText, integerRef, unixSeconds } from './wire-primitives';

export const subscriptionResultSchema = z.looseObject({
  productRef: integerRef,
  /** see classifySubscriptionState */
  subscriptionState: enumText,
  subscriptionExpiresAt: unixSeconds.nullable(),
});
export type SubscriptionResult = z.infer<typeof subscriptionResultSchema>;

export const subscriptionChangeSchema = z.looseObject({
  list: z.array(subscriptionResultSchema),
});
export type SubscriptionChange = z.infer<typeof subscriptionChangeSchema>;
