import { describe, expect, it } from 'vitest';
import {
  classifyAccessState,
  classifyActions,
  classifyAvailability,
  classifyCaseState,
  classifyEntryMode,
  classifyInventoryType,
  classifyOrderAction,
  classifyOrderState,
  classifyProductType,
  classifyPurchaseFieldType,
  classifyRefundState,
  classifySubscriptionState,
  isAccessActive,
  isActionAllowed,
  isCaseActive,
  isPurchasable,
  isRefundSucceeded,
  isSupplyFinished,
  isTerminalOrderState,
  isTerminalSuccess,
  rawValue,
} from '../../../src/shared/merchant';

describe('enum classifiers', () => {
  it('classifies known values', () => {
    expect(classifyOrderState('completed')).toEqual({ kind: 'known', value: 'completed' });
    expect(classifyAvailability('unavailable')).toEqual({ kind: 'known', value: 'unavailable' });
    expect(classifyInventoryType('undisclosed')).toEqual({ kind: 'known', value: 'undisclosed' });
    expect(classifyProductType('topup')).toEqual({ kind: 'known', value: 'topup' });
    expect(classifyEntryMode('perUnit')).toEqual({ kind: 'known', value: 'perUnit' });
    expect(classifyPurchaseFieldType('select')).toEqual({ kind: 'known', value: 'select' });
    expect(classifyRefundState('succeeded')).toEqual({ kind: 'known', value: 'succeeded' });
    expect(classifyCaseState('replied')).toEqual({ kind: 'known', value: 'replied' });
    expect(classifySubscriptionState('expired')).toEqual({ kind: 'known', value: 'expired' });
    expect(classifyAccessState('suspended')).toEqual({ kind: 'known', value: 'suspended' });
  });

  it('keeps unknown values raw, including case variants and prototype names', () => {
    expect(classifyOrderState('shipped')).toEqual({ kind: 'unknown', raw: 'shipped' });
    expect(classifyOrderState('Completed')).toEqual({ kind: 'unknown', raw: 'Completed' });
    expect(classifyOrderState('constructor')).toEqual({ kind: 'unknown', raw: 'constructor' });
    expect(classifyOrderState('')).toEqual({ kind: 'unknown', raw: '' });
    expect(rawValue(classifyOrderState('shipped'))).toBe('shipped');
    expect(classifyEntryMode('perAccount')).toEqual({ kind: 'unknown', raw: 'perAccount' });
  });

  it('never treats an unknown value as success, purchasable or active', () => {
    for (const raw of ['shipped', 'success', 'COMPLETED', 'toString']) {
      expect(isTerminalSuccess(raw)).toBe(false);
      expect(isTerminalSuccess(classifyOrderState(raw))).toBe(false);
      expect(isSupplyFinished(raw)).toBe(false);
      expect(isTerminalOrderState(raw)).toBe(false);
      expect(isPurchasable(raw)).toBe(false);
      expect(isAccessActive(raw)).toBe(false);
      expect(isRefundSucceeded(raw)).toBe(false);
      expect(isCaseActive(raw)).toBe(false);
    }
    expect(isTerminalSuccess('completed')).toBe(true);
    expect(isTerminalSuccess('refunded')).toBe(false);
    expect(isTerminalOrderState('completed')).toBe(false);
    expect(isTerminalOrderState('cancelled')).toBe(true);
    expect(isSupplyFinished('failed')).toBe(true);
    expect(isPurchasable('available')).toBe(true);
    expect(isAccessActive('active')).toBe(true);
    expect(isRefundSucceeded('succeeded')).toBe(true);
  });

  it('splits allowedActions and allows only exactly listed actions', () => {
    expect(classifyActions(['refund', 'escalate', 'aftersale'], classifyOrderAction)).toEqual({ known: ['refund', 'aftersale'], unknown: ['escalate'] });
    expect(isActionAllowed(['refund'], 'refund')).toBe(true);
    expect(isActionAllowed(['Refund'], 'refund')).toBe(false);
    expect(isActionAllowed([], 'cancel')).toBe(false);
  });
});
