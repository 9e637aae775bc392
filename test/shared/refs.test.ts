// The ref shapes' one home: what they accept and refuse, and that every ref the app makes fits the
// shape the other side checks it against.
import { describe, expect, it } from 'vitest';
import { newClientMessageRef } from '../../src/core/aftersales/message-ref';
import { newClientRef } from '../../src/core/orders/client-ref';
import { newDraftRef } from '../../src/renderer/src/lib/order-draft';
import { cardKeySchema } from '../../src/shared/ipc/views/vault';
import { CLIENT_REF_PATTERN, DRAFT_REF_PATTERN, isClientRef, isDraftRef } from '../../src/shared/refs';

const CLIENT_REFS: readonly [string, boolean][] = [
  ['o', true],
  ['PD_order_1', true],
  ['o_Zk3q9XbT0aPwL1mN8sYc-_', true],
  ['a'.repeat(64), true],
  ['a'.repeat(65), false],
  ['', false],
  ['no spaces', false],
  ['card:1', false],
  ['订单1', false],
  ['o_1\n', false],
  ['o.1', false],
  ['o/1', false],
];

const DRAFT_REFS: readonly [string, boolean][] = [
  ['rv_Zk3q9XbT0aPwL1mN8sYc', true],
  ['a'.repeat(16), true],
  ['a'.repeat(15), false],
  ['a'.repeat(64), true],
  ['a'.repeat(65), false],
  ['rv_Zk3q9XbT0aPw L1mN8', false],
  ['rv_Zk3q9XbT0aPw=L1mN8', false],
];

describe('ref shapes', () => {
  it.each(CLIENT_REFS)('client ref %j → %s', (value, ok) => {
    expect(isClientRef(value)).toBe(ok);
    expect(CLIENT_REF_PATTERN.test(value)).toBe(ok);
  });

  it.each(DRAFT_REFS)('draft ref %j → %s', (value, ok) => {
    expect(isDraftRef(value)).toBe(ok);
    expect(DRAFT_REF_PATTERN.test(value)).toBe(ok);
  });

  it('every ref the app makes fits its shape', () => {
    for (let i = 0; i < 50; i += 1) {
      expect(isClientRef(newClientRef('o'))).toBe(true);
      expect(isClientRef(newClientRef('r'))).toBe(true);
      expect(isClientRef(newClientMessageRef())).toBe(true);
      expect(isDraftRef(newDraftRef())).toBe(true);
    }
  });

  it('the IPC schemas check the same shape', () => {
    expect(cardKeySchema.safeParse({ clientOrderRef: 'a'.repeat(64), seq: 0 }).success).toBe(true);
    expect(cardKeySchema.safeParse({ clientOrderRef: 'a'.repeat(65), seq: 0 }).success).toBe(false);
    expect(cardKeySchema.safeParse({ clientOrderRef: 'card:1', seq: 0 }).success).toBe(false);
  });
});
