// Payloads written from docs/contract.md, as the sandbox sends them.
export function variantWire(): Record<string, unknown> {
  return { variantRef: 0, title: '月卡', price: 19.9, availability: 'available', inventoryType: 'tracked', remainingUnits: 12, purchaseSchemaRevision: 3 };
}

export function snapshotWire(): Record<string, unknown> {
  return {
    productRef: 1001,
    catalogRef: 11,
    brand: { brandRef: 7, name: '腾讯视频', imageUrl: 'https://img.example.com/b7.png' },
    availability: 'available',
    revision: 1767225600,
    variants: [variantWire()],
  };
}

export function detailWire(): Record<string, unknown> {
  return {
    ...snapshotWire(),
    name: '腾讯视频VIP',
    productType: 'card',
    description: '会员卡密',
    imageUrl: null,
    variants: [{ ...variantWire(), faceValue: 25 }],
  };
}

export function orderWire(): Record<string, unknown> {
  return {
    clientOrderRef: 'ord_0001',
    platformOrderRef: '20260101000123',
    productRef: 1001,
    variantRef: 0,
    productName: '腾讯视频VIP',
    variantTitle: '月卡',
    productType: 'card',
    units: 2,
    unitPrice: 19.9,
    totalAmount: 39.8,
    refundedAmount: 0,
    state: 'completed',
    allowedActions: ['refund', 'aftersale'],
    revision: 4,
    failureReason: null,
    verificationHint: null,
    createdAt: 1767225600,
    updatedAt: 1767225660,
    completedAt: 1767225660,
    orderCallbackUrl: null,
    imageUrl: null,
    entryCount: 0,
    refunds: [
      {
        refundRef: 'RF0001',
        clientRefundRef: 'rf_1',
        amount: 0.01,
        state: 'rejected',
        reason: '不想要了',
        merchantNote: '卡密已使用',
        createdAt: 1767225700,
        resolvedAt: 1767225800,
      },
    ],
    card_list: [{ card_no: '0012345678901234567890', card_password: '000987', expiresAt: null }],
  };
}

export function caseMessageWire(): Record<string, unknown> {
  return { messageRef: 'MSG01', clientMessageRef: null, sender: 'merchant', text: '已处理', images: [], createdAt: 1767225900 };
}

export function caseWire(): Record<string, unknown> {
  return {
    platformCaseRef: 'AS0001',
    clientOrderRef: 'ord_0001',
    platformOrderRef: '20260101000123',
    category: 'cardInvalid',
    description: '卡密无效',
    images: ['https://img.example.com/e.png'],
    state: 'replied',
    allowedActions: ['message'],
    createdAt: 1767225850,
    updatedAt: 1767225900,
    messages: [{ ...caseMessageWire(), messageRef: 'MSG00', clientMessageRef: 'm_1', sender: 'buyer', text: '无法使用' }, caseMessageWire()],
  };
}

export function templateWire(): Record<string, unknown> {
  return {
    productRef: 2001,
    variantRef: 5,
    productType: 'topup',
    purchaseSchemaRevision: 2,
    entryMode: 'single',
    purchaseFields: [
      { fieldRef: 'mobile', label: '充值手机号', type: 'mobile', required: true, pattern: '^1\\d{10}$', minLength: 11, maxLength: 11, options: null, placeholder: '请输入手机号', sensitive: true },
      { fieldRef: 'carrier', label: '运营商', type: 'select', required: false, pattern: null, minLength: null, maxLength: null, options: [{ value: 'cmcc', label: '移动' }], placeholder: null, sensitive: false },
    ],
    unitRule: { min: 1, max: 10, step: 1 },
  };
}

/** A copy of `wire` without `field`. */
export function without(wire: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy = { ...wire };
  delete copy[field];
  return copy;
}
