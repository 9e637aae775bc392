// POST /orders/create against the running sandbox: the charge (interface v1 §4.1, contract §7.1), every
// rejection of interface v1 §7.3 with its HTTP status and code, "a rejected create stores nothing", and the
// order list of contract §7.5. Orders stay where they are (--auto-advance off); the fast clock only
// keeps the create quota (burst 10 / s) from slowing the many sequential creates down.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import {
  Catalog,
  accountBalanceFen,
  advance,
  api,
  changeProduct,
  controlProduct,
  controlProducts,
  createOrder,
  entriesFor,
  expectError,
  fen,
  goodCard,
  hasStock,
  isCard,
  isOpen,
  isTopup,
  launch,
  ledger,
  must,
  newAccount,
  ok,
  orderBody,
  setAccount,
  sleep,
  sorted,
  template,
  uid,
  validGroup,
  valueFits,
  yuanText,
  type Account,
  type Harness,
  type ListPayload,
  type Order,
  type Pick,
  type PurchaseField,
  type Template,
} from '../../support/orders-harness';

const TIME_SCALE = 30;

let h: Harness;
let strict: Harness;
let catalog: Catalog;
let receiver: WebhookReceiver;
/** Templates of every variant, keyed "productRef/variantRef", to find the rules a test needs. */
const templates = new Map<string, Template>();

beforeAll(async () => {
  [h, strict, receiver] = await Promise.all([
    launch(['--auto-advance', 'off'], TIME_SCALE),
    launch(['--auto-advance', 'off', '--callback-policy', 'strict'], TIME_SCALE),
    startWebhookReceiver(),
  ]);
  catalog = new Catalog(await controlProducts(h));
  const reader = await newAccount(h);
  for (const product of catalog.products) {
    for (const variant of product.variants) {
      templates.set(`${product.productRef}/${variant.variantRef}`, await template(h, reader, { product, variant }));
    }
  }
});

afterAll(async () => {
  await Promise.all([h?.sandbox.stop(), strict?.sandbox.stop(), receiver?.close()]);
});

function tplOf(pick: Pick): Template {
  return must(templates.get(`${pick.product.productRef}/${pick.variant.variantRef}`), 'template');
}

function bodyFor(pick: Pick, ref: string, units?: number): Record<string, unknown> {
  return orderBody(pick, tplOf(pick), ref, units);
}

function without(body: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
}

async function expectNoOrder(account: Account, ref: string): Promise<void> {
  expectError(await api(h, account, 'GET', `/orders/${ref}`), 404, 404002);
}

describe('a created order and its charge', () => {
  test('a card order is pending, costs unitPrice × units, and is charged exactly its totalAmount once', async () => {
    const account = await newAccount(h, '5000');
    const pick = catalog.find((p, v) => goodCard(p, v) && tplOf({ product: p, variant: v }).unitRule.max >= tplOf({ product: p, variant: v }).unitRule.min + tplOf({ product: p, variant: v }).unitRule.step, 'a card variant allowing two unit counts');
    const rule = tplOf(pick).unitRule;
    const units = rule.min + rule.step;
    const ref = uid('charge');
    const order = ok(await createOrder(h, account, bodyFor(pick, ref, units)));

    expect(order).toMatchObject({
      clientOrderRef: ref,
      productRef: pick.product.productRef,
      variantRef: pick.variant.variantRef,
      productType: 'card',
      units,
      state: 'pending',
      allowedActions: ['cancel'],
      card_list: null,
      refunds: [],
      orderCallbackUrl: null,
      imageUrl: null,
    });
    expect(order.platformOrderRef).toMatch(/^\d+$/);
    expect(fen(order.unitPrice)).toBe(fen(pick.variant.price));
    expect(fen(order.totalAmount)).toBe(fen(order.unitPrice) * units);
    expect(fen(order.refundedAmount)).toBe(0);
    expect(Number.isInteger(order.revision)).toBe(true);
    expect(String(order.createdAt)).toMatch(/^\d{10}$/);

    const book = await ledger(h, account);
    const charges = entriesFor(book, ref, 'charge');
    expect(charges).toHaveLength(1);
    expect(fen(must(charges[0], 'charge').amount)).toBe(fen(order.totalAmount));
    expect(entriesFor(book, ref, 'refund')).toEqual([]);
    expect(fen(book.balance)).toBe(500_000 - fen(order.totalAmount));
    expect(await accountBalanceFen(h, account)).toBe(500_000 - fen(order.totalAmount));

    // The detail shows the same order.
    const detail = ok(await api<Order>(h, account, 'GET', `/orders/${ref}`));
    expect(detail.platformOrderRef).toBe(order.platformOrderRef);
    expect(fen(detail.totalAmount)).toBe(fen(order.totalAmount));
  });

  test('a top-up order is charged its totalAmount and records how many entry groups it got', async () => {
    const account = await newAccount(h, '5000');
    const pick = catalog.find((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v), 'an orderable top-up');
    const ref = uid('topup');
    const body = bodyFor(pick, ref);
    const order = ok(await createOrder(h, account, body));
    expect(order.productType).toBe('topup');
    expect(order.entryCount).toBe((body.purchaseEntries as unknown[]).length);
    expect(fen(order.totalAmount)).toBe(fen(pick.variant.price) * tplOf(pick).unitRule.min);
    const book = await ledger(h, account);
    expect(entriesFor(book, ref, 'charge').map((e) => fen(e.amount))).toEqual([fen(order.totalAmount)]);
    expect(fen(book.balance)).toBe(500_000 - fen(order.totalAmount));
  });

  test('an unknown order reference is 404002', async () => {
    const account = await newAccount(h);
    await expectNoOrder(account, uid('nothing'));
  });
});

describe('request bodies are read as JSON whatever their Content-Type (contract §2.1)', () => {
  test.each(['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded'])('a valid order sent as %s is created once', async (contentType) => {
    const account = await newAccount(h);
    const card = catalog.find((p, v) => goodCard(p, v) && p.variants.length === 1 && tplOf({ product: p, variant: v }).unitRule.min === 1, 'a single-variant card');
    const ref = uid('type');
    const order = ok(await api<{ clientOrderRef: string }>(h, account, 'POST', '/orders/create', { body: bodyFor(card, ref, 1), headers: { 'content-type': contentType } }));
    expect(order.clientOrderRef).toBe(ref);
    expect(entriesFor(await ledger(h, account), ref, 'charge')).toHaveLength(1);
  });
});

describe('400001: the body does not have the contract shape', () => {
  const cases: { name: string; body?: (card: Pick, ref: string) => unknown; raw?: string; contentType?: string }[] = [
    { name: 'not JSON', raw: '{"clientOrderRef": ' },
    { name: 'a JSON array', raw: '[]' },
    { name: 'a JSON string', raw: '"order"' },
    { name: 'an empty object (sent as text/plain)', raw: '{}', contentType: 'text/plain' },
    { name: 'missing clientOrderRef', body: (c) => ({ productRef: c.product.productRef, units: 1 }) },
    { name: 'empty clientOrderRef', body: (c) => ({ clientOrderRef: '', productRef: c.product.productRef, units: 1 }) },
    { name: 'clientOrderRef with a space', body: (c) => ({ clientOrderRef: 'has space', productRef: c.product.productRef, units: 1 }) },
    { name: 'clientOrderRef with a slash', body: (c) => ({ clientOrderRef: 'a/b', productRef: c.product.productRef, units: 1 }) },
    { name: 'clientOrderRef with non-ASCII', body: (c) => ({ clientOrderRef: '订单1', productRef: c.product.productRef, units: 1 }) },
    { name: 'clientOrderRef of 65 characters', body: (c) => ({ clientOrderRef: 'a'.repeat(65), productRef: c.product.productRef, units: 1 }) },
    { name: 'clientOrderRef a number', body: (c) => ({ clientOrderRef: 12345, productRef: c.product.productRef, units: 1 }) },
    { name: 'missing productRef', body: (_c, ref) => ({ clientOrderRef: ref, units: 1 }) },
    { name: 'productRef as text', body: (c, ref) => ({ clientOrderRef: ref, productRef: String(c.product.productRef), units: 1 }) },
    { name: 'missing units', body: (c, ref) => ({ clientOrderRef: ref, productRef: c.product.productRef }) },
    { name: 'units as text', body: (c, ref) => ({ clientOrderRef: ref, productRef: c.product.productRef, units: '1' }) },
    { name: 'fractional units', body: (c, ref) => ({ clientOrderRef: ref, productRef: c.product.productRef, units: 1.5 }) },
    { name: 'purchaseEntries not an array', body: (c, ref) => ({ clientOrderRef: ref, productRef: c.product.productRef, units: 1, purchaseEntries: 'x' }) },
  ];

  test.each(cases)('$name', async ({ body, raw, contentType }) => {
    const account = await newAccount(h);
    const card = catalog.find((p, v) => goodCard(p, v) && p.variants.length === 1, 'a single-variant card');
    const ref = uid('shape');
    const res = await api(h, account, 'POST', '/orders/create', {
      ...(raw !== undefined ? { rawBody: raw } : { body: body?.(card, ref) }),
      ...(contentType !== undefined ? { headers: { 'content-type': contentType } } : {}),
    });
    expectError(res, 400, 400001);
    await expectNoOrder(account, ref);
    expect(entriesFor(await ledger(h, account), ref)).toEqual([]);
  });

  test('a multi-variant product without variantRef is 400001, and the same ref then works with one', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => p.variants.length > 1 && isCard(p) && isOpen(p, v) && hasStock(v), 'a multi-variant card product');
    const ref = uid('novariant');
    const body = bodyFor(pick, ref);
    const withoutVariant = without(body, 'variantRef');
    expectError(await createOrder(h, account, withoutVariant), 400, 400001);
    const order = ok(await createOrder(h, account, body));
    expect(order.variantRef).toBe(pick.variant.variantRef);
  });

  test('a top-up without purchaseSchemaRevision is 400001', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v), 'an orderable top-up');
    const ref = uid('norev');
    const body = without(bodyFor(pick, ref), 'purchaseSchemaRevision');
    expectError(await createOrder(h, account, body), 400, 400001);
    await expectNoOrder(account, ref);
  });
});

describe('404001 and 422101: the product or variant cannot be bought', () => {
  test('an unknown product is 404001', async () => {
    const account = await newAccount(h);
    expectError(await createOrder(h, account, { clientOrderRef: uid('unknown'), productRef: 987_654_321, units: 1 }), 404, 404001);
  });

  test('an unknown variant of a multi-variant product is 404001', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => p.variants.length > 1 && isCard(p) && isOpen(p, v), 'a multi-variant card product');
    const body = { ...bodyFor(pick, uid('unknownvar')), variantRef: 987_654 };
    expectError(await createOrder(h, account, body), 404, 404001);
  });

  test('an unavailable product is 422101; once available again the same clientOrderRef is accepted', async () => {
    const account = await newAccount(h);
    const pick = catalog.claim(goodCard, 'an orderable card product');
    await changeProduct(h, pick.product.productRef, { availability: 'unavailable' });
    const ref = uid('unavail');
    expectError(await createOrder(h, account, bodyFor(pick, ref)), 422, 422101);
    await expectNoOrder(account, ref);
    expect(entriesFor(await ledger(h, account), ref)).toEqual([]);
    await changeProduct(h, pick.product.productRef, { availability: 'available' });
    expect(ok(await createOrder(h, account, bodyFor(pick, ref))).state).toBe('pending');
  });

  test('an unavailable variant is 422101 while its siblings stay orderable', async () => {
    const account = await newAccount(h);
    const pick = catalog.claim((p, v) => p.variants.length > 1 && p.variants.every((x) => isOpen(p, x) && hasStock(x)) && isCard(p) && v.supply === 'succeed', 'a multi-variant card product with every variant available');
    const sibling = must(
      pick.product.variants.find((v) => v.variantRef !== pick.variant.variantRef),
      'a sibling variant',
    );
    await changeProduct(h, pick.product.productRef, { variantRef: pick.variant.variantRef, availability: 'unavailable' });
    expectError(await createOrder(h, account, bodyFor(pick, uid('unavailvar'))), 422, 422101);
    ok(await createOrder(h, account, bodyFor({ product: pick.product, variant: sibling }, uid('sibling'))));
  });
});

describe('409101: the purchase template changed', () => {
  test('a stale purchaseSchemaRevision is 409101; the revision from GET /goods/tpl then works', async () => {
    const account = await newAccount(h);
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v), 'an orderable top-up');
    const before = await template(h, account, pick);
    await changeProduct(h, pick.product.productRef, { variantRef: pick.variant.variantRef, purchaseSchemaRevision: 'bump' });
    const ref = uid('stale');
    const stale = orderBody(pick, before, ref);
    expectError(await createOrder(h, account, stale), 409, 409101);
    await expectNoOrder(account, ref);

    const after = await template(h, account, pick);
    expect(after.purchaseSchemaRevision).not.toBe(before.purchaseSchemaRevision);
    const visible = await controlProduct(h, pick.product.productRef);
    expect(visible.variants.find((v) => v.variantRef === pick.variant.variantRef)?.purchaseSchemaRevision).toBe(after.purchaseSchemaRevision);
    const order = ok(await createOrder(h, account, orderBody(pick, after, ref)));
    expect(order.state).toBe('pending');
  });
});

describe('422110: units outside unitRule', () => {
  test('above max is 422110; a valid count then works with the same ref', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => goodCard(p, v), 'an orderable card');
    const rule = tplOf(pick).unitRule;
    const ref = uid('units');
    for (const units of [rule.max + 1, rule.max + 1000]) {
      expectError(await createOrder(h, account, bodyFor(pick, ref, units)), 422, 422110);
    }
    expect(ok(await createOrder(h, account, bodyFor(pick, ref, rule.min))).units).toBe(rule.min);
  });

  test('a positive count below min is 422110', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => isOpen(p, v) && hasStock(v) && tplOf({ product: p, variant: v }).unitRule.min > 1, 'a variant whose unitRule has min > 1');
    const rule = tplOf(pick).unitRule;
    const ref = uid('below');
    expectError(await createOrder(h, account, bodyFor(pick, ref, rule.min - 1)), 422, 422110);
    await expectNoOrder(account, ref);
  });

  // Contract §7.1 types units as an integer checked against unitRule (422110) and names no other
  // bound, so 0 is a well-formed integer below every min.
  test('units 0 is 422110 (below unitRule.min), not a body-shape error', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => goodCard(p, v), 'an orderable card');
    expectError(await createOrder(h, account, bodyFor(pick, uid('zero'), 0)), 422, 422110);
  });

  test('a count between two steps is 422110', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => isOpen(p, v) && hasStock(v) && tplOf({ product: p, variant: v }).unitRule.step > 1, 'a variant whose unitRule has step > 1');
    const rule = tplOf(pick).unitRule;
    expectError(await createOrder(h, account, bodyFor(pick, uid('step'), rule.min + 1)), 422, 422110);
    // A count on the step is accepted (entries follow the count for perUnit templates).
    const onStep = Math.min(rule.min + rule.step, rule.max);
    ok(await createOrder(h, account, bodyFor(pick, uid('step'), onStep)));
  });
});

describe('422111: purchaseEntries do not match the template', () => {
  const topupWith = (what: string, test: (tpl: Template) => boolean): Pick =>
    catalog.find((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && test(tplOf({ product: p, variant: v })), what);

  const fieldOf = (tpl: Template, test: (f: PurchaseField) => boolean): PurchaseField => must(tpl.purchaseFields.find(test), 'field');

  test('perUnit: one group more than units, and no group at all, are 422111', async () => {
    const account = await newAccount(h);
    const pick = topupWith('a perUnit top-up', (t) => t.entryMode === 'perUnit');
    const tpl = tplOf(pick);
    const ref = uid('perunit');
    const body = bodyFor(pick, ref);
    expectError(await createOrder(h, account, { ...body, purchaseEntries: [...Array.from({ length: tpl.unitRule.min + 1 }, () => validGroup(tpl))] }), 422, 422111);
    expectError(await createOrder(h, account, { ...body, purchaseEntries: [] }), 422, 422111);
    await expectNoOrder(account, ref);
    expect(ok(await createOrder(h, account, body)).entryCount).toBe(tpl.unitRule.min);
  });

  test('perUnit with several units needs exactly that many groups', async () => {
    const account = await newAccount(h);
    const pick = topupWith('a perUnit top-up allowing two counts', (t) => t.entryMode === 'perUnit' && t.unitRule.max >= t.unitRule.min + t.unitRule.step);
    const tpl = tplOf(pick);
    const units = tpl.unitRule.min + tpl.unitRule.step;
    const body = bodyFor(pick, uid('perunit2'), units);
    expectError(await createOrder(h, account, { ...body, purchaseEntries: Array.from({ length: units - 1 }, () => validGroup(tpl)) }), 422, 422111);
    expect(ok(await createOrder(h, account, body)).entryCount).toBe(units);
  });

  test('single: two groups are 422111', async () => {
    const account = await newAccount(h);
    const pick = topupWith('a single-entry top-up', (t) => t.entryMode === 'single');
    const tpl = tplOf(pick);
    const body = bodyFor(pick, uid('single'));
    expectError(await createOrder(h, account, { ...body, purchaseEntries: [validGroup(tpl), validGroup(tpl)] }), 422, 422111);
    expect(ok(await createOrder(h, account, body)).entryCount).toBe(1);
  });

  test('an unknown fieldRef is 422111', async () => {
    const account = await newAccount(h);
    const pick = topupWith('a top-up with entries', (t) => t.entryMode !== 'none');
    const tpl = tplOf(pick);
    const body = bodyFor(pick, uid('unknownfield'));
    const entries = (body.purchaseEntries as Record<string, string>[]).map((g) => ({ ...g, noSuchField: 'x' }));
    expectError(await createOrder(h, account, { ...body, purchaseEntries: entries }), 422, 422111);
    expect(tpl.purchaseFields.some((f) => f.fieldRef === 'noSuchField')).toBe(false);
  });

  test('a missing or empty required field is 422111', async () => {
    const account = await newAccount(h);
    const pick = topupWith('a top-up with a required field', (t) => t.entryMode !== 'none' && t.purchaseFields.some((f) => f.required));
    const tpl = tplOf(pick);
    const required = fieldOf(tpl, (f) => f.required);
    const body = bodyFor(pick, uid('required'));
    const groups = body.purchaseEntries as Record<string, string>[];
    const without = groups.map((g) => Object.fromEntries(Object.entries(g).filter(([k]) => k !== required.fieldRef)));
    expectError(await createOrder(h, account, { ...body, purchaseEntries: without }), 422, 422111);
    const empty = groups.map((g) => ({ ...g, [required.fieldRef]: '' }));
    expectError(await createOrder(h, account, { ...body, purchaseEntries: empty }), 422, 422111);
  });

  test('a value that does not match the field pattern is 422111', async () => {
    const account = await newAccount(h);
    const pick = topupWith('a top-up with a patterned field', (t) => t.entryMode !== 'none' && t.purchaseFields.some((f) => f.pattern !== null || f.type === 'mobile'));
    const tpl = tplOf(pick);
    const field = fieldOf(tpl, (f) => f.pattern !== null || f.type === 'mobile');
    const bad = must(
      ['x', '!!', '1', 'abc def', '0000000000000000000000000000'].find((v) => !valueFits(field, v) && (field.pattern === null || !new RegExp(`^(?:${field.pattern})$`).test(v))),
      'a value breaking the pattern',
    );
    const body = bodyFor(pick, uid('pattern'));
    const groups = (body.purchaseEntries as Record<string, string>[]).map((g) => ({ ...g, [field.fieldRef]: bad }));
    expectError(await createOrder(h, account, { ...body, purchaseEntries: groups }), 422, 422111);
  });

  test('a select value outside its options is 422111', async () => {
    const account = await newAccount(h);
    const pick = topupWith('a top-up with a select field', (t) => t.entryMode !== 'none' && t.purchaseFields.some((f) => f.type === 'select'));
    const field = fieldOf(tplOf(pick), (f) => f.type === 'select');
    const body = bodyFor(pick, uid('select'));
    const groups = (body.purchaseEntries as Record<string, string>[]).map((g) => ({ ...g, [field.fieldRef]: 'not-an-option-value' }));
    expectError(await createOrder(h, account, { ...body, purchaseEntries: groups }), 422, 422111);
    // The option label is not its value either.
    const label = must(field.options?.find((o) => o.label !== o.value)?.label, 'an option whose label differs from its value');
    const byLabel = (body.purchaseEntries as Record<string, string>[]).map((g) => ({ ...g, [field.fieldRef]: label }));
    expectError(await createOrder(h, account, { ...body, purchaseEntries: byLabel }), 422, 422111);
    ok(await createOrder(h, account, body));
  });

  test('a card order with entries is 422111', async () => {
    const account = await newAccount(h);
    const pick = catalog.find(goodCard, 'an orderable card');
    expectError(await createOrder(h, account, { ...bodyFor(pick, uid('cardentries')), purchaseEntries: [{ account: '12345' }] }), 422, 422111);
  });
});

describe('422112: imageUrl is not a public HTTPS image URL of at most 2048 characters', () => {
  const sized = (length: number): string => {
    const head = 'https://img.example.com/';
    return head + 'a'.repeat(length - head.length - '.png'.length) + '.png';
  };
  const bad = [
    'http://img.example.com/a.png',
    sized(2049),
    'https://10.1.2.3/a.png',
    'https://192.168.0.10/a.png',
    'https://172.16.5.4/a.png',
    'https://127.0.0.1/a.png',
    'https://169.254.1.1/a.png',
    'https://198.18.0.1/a.png',
    'https://[64:ff9b::a00:1]/a.png',
    'https://[2002:c0a8:101::1]/a.png',
    'https://[::127.0.0.1]/a.png',
    'https://localhost/a.png',
    'https://intranet/a.png',
    'https://img.example.com/a.txt',
    'https://img.example.com/',
    'https://img.example.com/a.html',
    'not a url',
  ];

  test.each(bad)('%s is 422112', async (imageUrl) => {
    const account = await newAccount(h);
    const pick = catalog.find(goodCard, 'an orderable card');
    const ref = uid('img');
    expectError(await createOrder(h, account, { ...bodyFor(pick, ref), imageUrl }), 422, 422112);
    await expectNoOrder(account, ref);
  });

  test('a public HTTPS image URL of exactly 2048 characters is saved on the order', async () => {
    const account = await newAccount(h);
    const pick = catalog.find(goodCard, 'an orderable card');
    const imageUrl = sized(2048);
    expect(imageUrl).toHaveLength(2048);
    const order = ok(await createOrder(h, account, { ...bodyFor(pick, uid('img')), imageUrl }));
    expect(order.imageUrl).toBe(imageUrl);
    const jpeg = ok(await createOrder(h, account, { ...bodyFor(pick, uid('img')), imageUrl: 'https://cdn.example.com/p/1.JPEG' }));
    expect(jpeg.imageUrl).toBe('https://cdn.example.com/p/1.JPEG');
  });
});

describe('422114: orderCallbackUrl', () => {
  const rejectedWhenStrict = [
    'http://127.0.0.1:9/hooks',
    'https://127.0.0.1/hooks',
    'https://localhost/hooks',
    'http://hooks.example.com/cb',
    'https://10.0.0.5/cb',
    'https://192.168.1.1/cb',
    'https://[::ffff:192.168.1.1]/cb',
    'https://203.0.113.7/cb',
    'https://intranet/cb',
    'ftp://hooks.example.com/cb',
    'not a url',
    `https://hooks.example.com/${'a'.repeat(2048)}`,
  ];

  test.each(rejectedWhenStrict)('under --callback-policy strict, %s is 422114', async (orderCallbackUrl) => {
    const account = await newAccount(strict);
    const pick = catalog.find(goodCard, 'an orderable card');
    const ref = uid('cb');
    expectError(await createOrder(strict, account, { ...bodyFor(pick, ref), orderCallbackUrl }), 422, 422114);
    expectError(await api(strict, account, 'GET', `/orders/${ref}`), 404, 404002);
  });

  test('under strict a public HTTPS callback URL is accepted and saved', async () => {
    const account = await newAccount(strict);
    const pick = catalog.find(goodCard, 'an orderable card');
    const order = ok(await createOrder(strict, account, { ...bodyFor(pick, uid('cb')), orderCallbackUrl: 'https://hooks.example.com/procure/cb' }));
    expect(order.orderCallbackUrl).toBe('https://hooks.example.com/procure/cb');
  });

  test('under the default loopback policy a local http receiver is accepted, a public http one is not', async () => {
    const account = await newAccount(h);
    const pick = catalog.find(goodCard, 'an orderable card');
    const order = ok(await createOrder(h, account, { ...bodyFor(pick, uid('cb')), orderCallbackUrl: receiver.url }));
    expect(order.orderCallbackUrl).toBe(receiver.url);
    expectError(await createOrder(h, account, { ...bodyFor(pick, uid('cb')), orderCallbackUrl: 'http://hooks.example.com/cb' }), 422, 422114);
    expectError(await createOrder(h, account, { ...bodyFor(pick, uid('cb')), orderCallbackUrl: 'https://10.0.0.5/cb' }), 422, 422114);
  });
});

describe('422102: tracked stock', () => {
  test('more units than the tracked stock is 422102; what is left can be bought; a sold-out variant is 422102', async () => {
    const account = await newAccount(h);
    const pick = catalog.claim((p, v) => goodCard(p, v) && tplOf({ product: p, variant: v }).unitRule.max >= tplOf({ product: p, variant: v }).unitRule.min + tplOf({ product: p, variant: v }).unitRule.step, 'a card variant allowing two unit counts');
    const rule = tplOf(pick).unitRule;
    await changeProduct(h, pick.product.productRef, { variantRef: pick.variant.variantRef, inventoryType: 'tracked', remainingUnits: rule.min });

    const tooMany = uid('stock');
    expectError(await createOrder(h, account, bodyFor(pick, tooMany, rule.min + rule.step)), 422, 422102);
    await expectNoOrder(account, tooMany);
    expect(entriesFor(await ledger(h, account), tooMany)).toEqual([]);

    ok(await createOrder(h, account, bodyFor(pick, uid('stock'), rule.min)));
    const after = await controlProduct(h, pick.product.productRef);
    expect(after.variants.find((v) => v.variantRef === pick.variant.variantRef)?.remainingUnits).toBe(0);

    const soldOut = uid('soldout');
    expectError(await createOrder(h, account, bodyFor(pick, soldOut, rule.min)), 422, 422102);
    await changeProduct(h, pick.product.productRef, { variantRef: pick.variant.variantRef, remainingUnits: 100 });
    expect(ok(await createOrder(h, account, bodyFor(pick, soldOut, rule.min))).state).toBe('pending');
  });

  test('a variant set to stock 0 is 422102', async () => {
    const account = await newAccount(h);
    const pick = catalog.claim(goodCard, 'an orderable card');
    await changeProduct(h, pick.product.productRef, { variantRef: pick.variant.variantRef, inventoryType: 'tracked', remainingUnits: 0 });
    expectError(await createOrder(h, account, bodyFor(pick, uid('zero'))), 422, 422102);
  });
});

describe('422100: no more specific reason (contract §7.1: the per-order amount limit)', () => {
  test('an order above 10000 yuan is 422100 when the balance could pay it (422103 when not); exactly 10000 yuan is accepted', async () => {
    const account = await newAccount(h);
    const pick = catalog.claim((p, v) => goodCard(p, v) && tplOf({ product: p, variant: v }).unitRule.min === 1 && v.inventoryType !== 'tracked', 'an orderable card variant with unitRule.min 1 and no tracked stock');
    await changeProduct(h, pick.product.productRef, { variantRef: pick.variant.variantRef, price: '10000.01' });
    // Without the balance to pay it, the more specific reason wins: 422103, not 422100.
    await setAccount(h, account, { balance: '5000' });
    expectError(await createOrder(h, account, bodyFor(pick, uid('poor-cap'), 1)), 422, 422103);
    await setAccount(h, account, { balance: '50000' });
    const ref = uid('cap');
    expectError(await createOrder(h, account, bodyFor(pick, ref, 1)), 422, 422100);
    await expectNoOrder(account, ref);
    expect(entriesFor(await ledger(h, account), ref)).toEqual([]);

    await changeProduct(h, pick.product.productRef, { variantRef: pick.variant.variantRef, price: '10000' });
    const order = ok(await createOrder(h, account, bodyFor(pick, ref, 1)));
    expect(fen(order.totalAmount)).toBe(1_000_000);
    expect(await accountBalanceFen(h, account)).toBe(4_000_000);
  });
});

describe('422103: balance too small', () => {
  test('one fen short is 422103 and charges nothing; with the exact amount the same ref succeeds', async () => {
    const account = await newAccount(h);
    const pick = catalog.find((p, v) => goodCard(p, v) && fen(v.price) > 1, 'an orderable card costing more than 0.01');
    const units = tplOf(pick).unitRule.min;
    const total = fen(pick.variant.price) * units;
    await setAccount(h, account, { balance: yuanText(total - 1) });
    const ref = uid('poor');
    expectError(await createOrder(h, account, bodyFor(pick, ref)), 422, 422103);
    await expectNoOrder(account, ref);
    const book = await ledger(h, account);
    expect(entriesFor(book, ref)).toEqual([]);
    expect(fen(book.balance)).toBe(total - 1);

    await setAccount(h, account, { balance: yuanText(total) });
    const order = ok(await createOrder(h, account, bodyFor(pick, ref)));
    expect(fen(order.totalAmount)).toBe(total);
    expect(await accountBalanceFen(h, account)).toBe(0);
    expect(entriesFor(await ledger(h, account), ref, 'charge')).toHaveLength(1);
  });
});

describe('GET /orders (contract §7.5)', () => {
  let account: Account;
  let refs: string[];
  let first: Pick;
  let second: Pick;

  beforeAll(async () => {
    account = await newAccount(h);
    first = catalog.find(goodCard, 'an orderable card');
    second = catalog.find((p, v) => goodCard(p, v) && p.productRef !== first.product.productRef, 'a second orderable card product');
    refs = [];
    for (const pick of [first, second, first, second, first]) {
      const ref = uid('list');
      ok(await createOrder(h, account, bodyFor(pick, ref)));
      refs.push(ref);
      // Two sandbox seconds apart, so "newest first" is visible in createdAt as well.
      await sleep(Math.ceil(2000 / TIME_SCALE) + 20);
    }
    await advance(h, must(refs[1], 'ref'), 'processing');
    await advance(h, must(refs[1], 'ref'), 'completed');
    await advance(h, must(refs[3], 'ref'), 'processing');
  });

  test('lists every order of the account, newest first, without card_list', async () => {
    const page = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders'));
    expect(page).toMatchObject({ total: 5, page: 1, pageSize: 20 });
    expect(page.list.map((o) => o.clientOrderRef)).toEqual([...refs].reverse());
    for (const item of page.list) expect(item.card_list).toBeNull();
    const completed = must(
      page.list.find((o) => o.clientOrderRef === refs[1]),
      'completed order',
    );
    expect(completed.state).toBe('completed');
    expect(sorted(completed.allowedActions)).toEqual(['aftersale', 'refund']);
    const createdAt = page.list.map((o) => o.createdAt);
    expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);
    // The card list is only in the detail.
    expect(must((await api<Order>(h, account, 'GET', `/orders/${must(refs[1], 'ref')}`)).json, 'detail').data.card_list).not.toBeNull();
  });

  test('pages through the list and past its end', async () => {
    const p1 = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { page: 1, pageSize: 2 } }));
    const p2 = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { page: 2, pageSize: 2 } }));
    const p3 = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { page: 3, pageSize: 2 } }));
    const p4 = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { page: 4, pageSize: 2 } }));
    expect([p1, p2, p3, p4].map((p) => [p.page, p.pageSize, p.total])).toEqual([
      [1, 2, 5],
      [2, 2, 5],
      [3, 2, 5],
      [4, 2, 5],
    ]);
    expect([...p1.list, ...p2.list, ...p3.list].map((o) => o.clientOrderRef)).toEqual([...refs].reverse());
    expect(p4.list).toEqual([]);
  });

  test('filters by state and by productRef', async () => {
    const pending = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { state: 'pending' } }));
    expect(pending.total).toBe(3);
    expect(pending.list.map((o) => o.clientOrderRef)).toEqual([refs[4], refs[2], refs[0]]);
    const completed = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { state: 'completed' } }));
    expect(completed.list.map((o) => o.clientOrderRef)).toEqual([refs[1]]);
    expect(completed.list[0]?.card_list).toBeNull();
    const processing = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { state: 'processing' } }));
    expect(processing.list.map((o) => o.clientOrderRef)).toEqual([refs[3]]);
    const byProduct = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { productRef: second.product.productRef } }));
    expect(byProduct.total).toBe(2);
    expect(byProduct.list.map((o) => o.clientOrderRef)).toEqual([refs[3], refs[1]]);
    const both = ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { productRef: first.product.productRef, state: 'pending' } }));
    expect(both.list.map((o) => o.clientOrderRef)).toEqual([refs[4], refs[2], refs[0]]);
  });

  test('another account sees none of them, and bad paging is 400001', async () => {
    const other = await newAccount(h);
    const empty = ok(await api<ListPayload<Order>>(h, other, 'GET', '/orders'));
    expect(empty).toMatchObject({ list: [], total: 0 });
    expectError(await api(h, other, 'GET', `/orders/${must(refs[0], 'ref')}`), 404, 404002);
    expectError(await api(h, account, 'GET', '/orders', { query: { pageSize: 101 } }), 400, 400001);
    expectError(await api(h, account, 'GET', '/orders', { query: { page: 0 } }), 400, 400001);
    expectError(await api(h, account, 'GET', '/orders', { query: { page: 'x' } }), 400, 400001);
  });
});
