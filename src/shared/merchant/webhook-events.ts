// The four webhook bodies: product.changed (interface v1 §2.4) and order.changed, order.credentials.ready,
// aftersale.message.created (contract §10). Every field the spec or contract marks required is
// required here, so a malformed body is refused before it is stored (interface v1 §6.4.1).
import { z } from 'zod';
import { caseMessageSchema } from './aftersale';
import { classifyWebhookEventType } from './known-values';
import { productSnapshotSchema } from './catalog';
import { cardSchema, orderSchema } from './order';
import { enumText, integerRef, stringRef, unixSeconds } from './wire-primitives';

/** What every body carries; enough to dedupe by `eventId` even for an event type we do not know. */
export const webhookHeaderSchema = z.looseObject({
  eventId: z.string().min(1),
  eventType: z.string().min(1),
  occurredAt: unixSeconds,
});
export type WebhookHeader = z.infer<typeof webhookHeaderSchema>;

const common = {
  eventId: z.string().min(1),
  occurredAt: unixSeconds,
};

export const productChangedEventSchema = z
  .looseObject({
    ...common,
    eventType: z.literal('product.changed'),
    productRef: integerRef,
    revision: unixSeconds,
    /** Items: see classifyProductChangedProperty; hints only, the snapshot is what counts. */
    changedProperties: z.array(enumText),
    productSnapshot: productSnapshotSchema,
  })
  .superRefine((event, ctx) => {
    // interface v1 §2.4: the snapshot repeats both; a body that disagrees with itself is not applied.
    if (event.productSnapshot.productRef !== event.productRef) {
      ctx.addIssue({ code: 'custom', path: ['productSnapshot', 'productRef'], message: 'productSnapshot.productRef differs from productRef' });
    }
    if (event.productSnapshot.revision !== event.revision) {
      ctx.addIssue({ code: 'custom', path: ['productSnapshot', 'revision'], message: 'productSnapshot.revision differs from revision' });
    }
  });
export type ProductChangedEvent = z.infer<typeof productChangedEventSchema>;

export const orderChangedEventSchema = z
  .looseObject({
    ...common,
    eventType: z.literal('order.changed'),
    clientOrderRef: stringRef,
    platformOrderRef: stringRef,
    revision: z.int().nonnegative(),
    /** Items: see classifyOrderChangedProperty. */
    changedProperties: z.array(enumText),
    /** Unauthenticated: money effects (refunds) wait for `GET /orders/{ref}` (interface v1 §6.4.9). */
    orderSnapshot: orderSchema,
  })
  .superRefine((event, ctx) => {
    if (event.orderSnapshot.clientOrderRef !== event.clientOrderRef) {
      ctx.addIssue({ code: 'custom', path: ['orderSnapshot', 'clientOrderRef'], message: 'orderSnapshot.clientOrderRef differs from clientOrderRef' });
    }
  });

export const credentialsReadyEventSchema = z.looseObject({
  ...common,
  eventType: z.literal('order.credentials.ready'),
  clientOrderRef: stringRef,
  platformOrderRef: stringRef,
  card_list: z.array(cardSchema),
});

export const aftersaleMessageCreatedEventSchema = z.looseObject({
  ...common,
  eventType: z.literal('aftersale.message.created'),
  platformCaseRef: stringRef,
  clientOrderRef: stringRef,
  /** see classifyCaseState */
  caseState: enumText,
  message: caseMessageSchema,
});

export const webhookEventSchema = z.discriminatedUnion('eventType', [
  productChangedEventSchema,
  orderChangedEventSchema,
  credentialsReadyEventSchema,
  aftersaleMessageCreatedEventSchema,
]);
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export type WebhookParseResult =
  | { readonly kind: 'event'; readonly event: WebhookEvent }
  /** A well-formed header with an event type this app does not know: kept raw, not processed. */
  | { readonly kind: 'unknownType'; readonly header: WebhookHeader }
  | { readonly kind: 'invalid'; readonly error: z.ZodError; readonly eventId: string | null };

/** Classifies a parsed JSON body; never throws. */
export function parseWebhookBody(body: unknown): WebhookParseResult {
  const header = webhookHeaderSchema.safeParse(body);
  if (!header.success) return { kind: 'invalid', error: header.error, eventId: null };
  if (classifyWebhookEventType(header.data.eventType).kind === 'unknown') return { kind: 'unknownType', header: header.data };
  const event = webhookEventSchema.safeParse(body);
  if (!event.success) return { kind: 'invalid', error: event.error, eventId: header.data.eventId };
  return { kind: 'event', event: event.data };
}
