import { describe, expect, it } from 'vitest';
import { parseWebhookBody, productChangedEventSchema, productSnapshotSchema } from '../../../src/shared/merchant';
import { caseMessageWire, orderWire, snapshotWire, without } from './fixtures';

function productChanged(): Record<string, unknown> {
  return {
    eventId: 'evt_0123456789abcdef01234567',
    eventType: 'product.changed',
    occurredAt: 1767225700,
    productRef: 1001,
    revision: 1767225600,
    changedProperties: ['price', 'remainingUnits'],
    productSnapshot: snapshotWire(),
  };
}

describe('product.changed (interface v1 §2.4)', () => {
  it('parses a valid body with money in fen', () => {
    const result = parseWebhookBody(productChanged());
    expect(result.kind).toBe('event');
    if (result.kind === 'event' && result.event.eventType === 'product.changed') {
      expect(result.event.productSnapshot.variants[0]?.price).toBe(1990);
    }
  });

  it.each(['eventId', 'eventType', 'occurredAt', 'productRef', 'revision', 'changedProperties', 'productSnapshot'])('rejects a body without %s', (field) => {
    const body = productChanged();
    delete body[field];
    expect(productChangedEventSchema.safeParse(body).success).toBe(false);
  });

  it.each(['productRef', 'catalogRef', 'availability', 'revision', 'variants'])('rejects a snapshot without %s', (field) => {
    const snapshot = snapshotWire();
    delete snapshot[field];
    expect(productSnapshotSchema.safeParse(snapshot).success).toBe(false);
  });

  it.each(['variantRef', 'title', 'price', 'availability', 'inventoryType', 'remainingUnits', 'purchaseSchemaRevision'])('rejects a variant without %s', (field) => {
    const snapshot = snapshotWire();
    const variant = { ...(snapshot.variants as Record<string, unknown>[])[0] };
    delete variant[field];
    expect(productSnapshotSchema.safeParse({ ...snapshot, variants: [variant] }).success).toBe(false);
  });

  it('treats brand as optional: absent stays absent, null clears', () => {
    expect(productSnapshotSchema.parse(without(snapshotWire(), 'brand')).brand).toBeUndefined();
    expect(productSnapshotSchema.parse({ ...snapshotWire(), brand: null }).brand).toBeNull();
    expect(productSnapshotSchema.safeParse({ ...snapshotWire(), brand: { brandRef: 1, name: 'x' } }).success).toBe(false);
  });

  it('checks remainingUnits against inventoryType', () => {
    const variant = (snapshotWire().variants as Record<string, unknown>[])[0];
    expect(productSnapshotSchema.safeParse({ ...snapshotWire(), variants: [{ ...variant, remainingUnits: null }] }).success).toBe(false);
    expect(productSnapshotSchema.safeParse({ ...snapshotWire(), variants: [{ ...variant, inventoryType: 'unlimited', remainingUnits: 5 }] }).success).toBe(false);
    expect(productSnapshotSchema.safeParse({ ...snapshotWire(), variants: [{ ...variant, inventoryType: 'unlimited', remainingUnits: null }] }).success).toBe(true);
    const unknown = productSnapshotSchema.parse({ ...snapshotWire(), variants: [{ ...variant, inventoryType: 'estimated', remainingUnits: 3 }] });
    expect(unknown.variants[0]?.inventoryType).toBe('estimated');
  });

  it('rejects a body whose snapshot disagrees with it', () => {
    expect(productChangedEventSchema.safeParse({ ...productChanged(), productRef: 1002 }).success).toBe(false);
    expect(productChangedEventSchema.safeParse({ ...productChanged(), revision: 1767225601 }).success).toBe(false);
  });

  it('keeps unknown hints and fields', () => {
    const parsed = productChangedEventSchema.parse({ ...productChanged(), changedProperties: ['price', 'tags'], traceId: 't' });
    expect(parsed.changedProperties).toEqual(['price', 'tags']);
    expect(parsed).toMatchObject({ traceId: 't' });
  });
});

describe('contract §10 bodies', () => {
  const base = { eventId: 'evt_1', occurredAt: 1767225700 };

  it('order.changed', () => {
    const body = { ...base, eventType: 'order.changed', clientOrderRef: 'ord_0001', platformOrderRef: '20260101000123', revision: 4, changedProperties: ['state'], orderSnapshot: { ...orderWire(), card_list: null } };
    expect(parseWebhookBody(body).kind).toBe('event');
    expect(parseWebhookBody({ ...body, orderSnapshot: { ...orderWire(), clientOrderRef: 'other' } }).kind).toBe('invalid');
    expect(parseWebhookBody(without(body, 'orderSnapshot')).kind).toBe('invalid');
  });

  it('order.credentials.ready', () => {
    const body = { ...base, eventType: 'order.credentials.ready', clientOrderRef: 'ord_0001', platformOrderRef: '20260101000123', card_list: [{ card_no: 'C1', card_password: 'P1', expiresAt: 1790000000 }] };
    expect(parseWebhookBody(body).kind).toBe('event');
    expect(parseWebhookBody({ ...body, card_list: undefined }).kind).toBe('invalid');
  });

  it('aftersale.message.created', () => {
    const body = { ...base, eventType: 'aftersale.message.created', platformCaseRef: 'AS1', clientOrderRef: 'ord_0001', caseState: 'reopened', message: caseMessageWire() };
    const result = parseWebhookBody(body);
    expect(result.kind).toBe('event');
    if (result.kind === 'event' && result.event.eventType === 'aftersale.message.created') expect(result.event.caseState).toBe('reopened');
  });

  it('keeps an unknown event type apart with its id, and reports invalid bodies with the id when known', () => {
    const unknown = parseWebhookBody({ ...base, eventType: 'wallet.changed', amount: 1 });
    expect(unknown).toMatchObject({ kind: 'unknownType', header: { eventId: 'evt_1', eventType: 'wallet.changed' } });
    expect(parseWebhookBody({ ...base, eventType: 'order.changed' })).toMatchObject({ kind: 'invalid', eventId: 'evt_1' });
    expect(parseWebhookBody('OK')).toMatchObject({ kind: 'invalid', eventId: null });
    expect(parseWebhookBody({ eventType: 'order.changed' })).toMatchObject({ kind: 'invalid', eventId: null });
  });
});
