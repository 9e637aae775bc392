// Where the desktop app takes the buyer when a notification is clicked (contract §17.4): the order, the
// cards of an order in the vault, a product (of the merchant the notification names), an after-sales
// case, or the dashboard (a low balance). Main pushes it as `app.navigate`; the renderer's router obeys.
import { z } from 'zod';
import { CLIENT_REF_PATTERN } from '../../refs';
import { profileIdSchema } from './profiles';

const orderRef = z.string().regex(CLIENT_REF_PATTERN);

export const appRouteSchema = z.discriminatedUnion('to', [
  z.object({ to: z.literal('order'), clientOrderRef: orderRef }),
  z.object({ to: z.literal('vault'), clientOrderRef: orderRef }),
  z.object({ to: z.literal('product'), productRef: z.number().int().positive(), profileId: profileIdSchema.optional(), productName: z.string().max(500).optional() }),
  z.object({ to: z.literal('case'), platformCaseRef: z.string().min(1).max(128), profileId: profileIdSchema.optional() }),
  z.object({ to: z.literal('dashboard') }),
]);
export type AppRoute = z.infer<typeof appRouteSchema>;
