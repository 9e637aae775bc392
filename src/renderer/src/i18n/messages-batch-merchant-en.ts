// English labels of a batch a fallback rule sends to another merchant (issue 24: the preview marks its
// rows, the confirmation totals per merchant and asks for the buyer's OK, progress names the merchant);
// merged into messages-en.ts. messages-batch-merchant-zh-cn.ts has the same keys (checked by its type).
export const batchMerchantEn = {
  'batchMerchant.notice.title': 'This batch is bought and paid at {to}, not at {from}',
  'batchMerchant.notice.reason.outOfStock': '{from} is out of stock.',
  'batchMerchant.notice.reason.unavailable': '{from} does not sell this now.',
  'batchMerchant.notice.reason.notEnoughStock': '{from} does not have enough stock for this batch.',
  'batchMerchant.notice.reason.aboveLimit': 'The price at {from} ({price} per unit) is above your limit of {limit}.',
  'batchMerchant.notice.rule': "Your link's fallback rule orders it from {to} instead: {product}, at {price} per unit (your limit: {limit}).",
  'batchMerchant.col': 'Merchant',
  'batchMerchant.rowPrice': '{price} each',
  'batchMerchant.totalsTitle': 'What each merchant charges',
  'batchMerchant.colOrders': 'Orders',
  'batchMerchant.colUnits': 'Units',
  'batchMerchant.colUnitPrice': 'Unit price',
  'batchMerchant.colTotal': 'Total',
  'batchMerchant.fallbackTag': 'Fallback',
  'batchMerchant.notCharged': 'Not charged',
  'batchMerchant.agree': 'I agree to pay {to} {total} for these orders (nothing is charged at {from}).',
  'batchMerchant.agreeNeeded': 'Tick the box above to pay {to}.',
  'batchMerchant.place': 'Pay {to} and send {count, plural, one {# order} other {# orders}}',
  'batchMerchant.statusNotice': "These orders are placed and charged at {to} (fallback rule; nothing at {from}). Their order numbers are {to}'s own.",
  'batchMerchant.charged': 'Charged at {merchant} so far: {amount}',
} as const;
