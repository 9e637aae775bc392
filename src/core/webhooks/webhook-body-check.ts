// A complete webhook body checked before it is stored: JSON, the event kind's required fields
// (shared/merchant/webhook-events), and for order.credentials.ready a ref that can name a vault record.
// Card secrets are registered with the logger the moment they are parsed, so no later line shows them.
import { parseWebhookBody } from '../../shared/merchant/webhook-events';
import type { SecretAwareLogger } from '../logging/logger';
import { cardSecretContext } from '../vault/card-cipher';
import type { StoreItem } from './webhook-inbox';
import { REJECTIONS, type Rejection } from './webhook-request-checks';

/** What to store (an unknown event type is stored and acknowledged, not acted on), or why not. */
export type BodyCheck = { kind: 'store'; item: StoreItem; unknownType: boolean } | { kind: 'rejected'; rejection: Rejection };

/** Parses and checks one complete body; what to store, or why not. */
export function checkWebhookBody(raw: Buffer, nowMs: number, logger: SecretAwareLogger): BodyCheck {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { kind: 'rejected', rejection: REJECTIONS.badJson };
  }
  const parsed = parseWebhookBody(json);
  if (parsed.kind === 'invalid') return { kind: 'rejected', rejection: REJECTIONS.invalidEvent };
  const receivedAt = Math.floor(nowMs / 1000);
  const body = json as Record<string, unknown>;
  if (parsed.kind === 'unknownType') {
    const { eventId, eventType, occurredAt } = parsed.header;
    return { kind: 'store', item: { input: { eventId, eventType, occurredAt, body, receivedAt }, cards: null }, unknownType: true };
  }
  const event = parsed.event;
  let cards: StoreItem['cards'] = null;
  if (event.eventType === 'order.credentials.ready') {
    // Before anything else can log: from here on these values become *** in every line.
    for (const card of event.card_list) {
      logger.registerSecret(card.card_no);
      logger.registerSecret(card.card_password);
    }
    try {
      // A ref that cannot name a vault record cannot be one of ours (and could not be sealed).
      cardSecretContext({ clientOrderRef: event.clientOrderRef, seq: 0, field: 'card_no' });
    } catch {
      return { kind: 'rejected', rejection: REJECTIONS.invalidEvent };
    }
    cards = { clientOrderRef: event.clientOrderRef, list: event.card_list };
  }
  return { kind: 'store', item: { input: { eventId: event.eventId, eventType: event.eventType, occurredAt: event.occurredAt, body, receivedAt }, cards }, unknownType: false };
}
