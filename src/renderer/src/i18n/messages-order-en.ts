// English labels of the order path (the order dialog's steps, the price guard, withdraw, supply
// status, the order detail); merged into messages-en.ts. messages-order-zh-cn.ts has the same keys.
export const orderEn = {
  'orderForm.review': 'Review order',
  'orderForm.unitsFixed': 'Quantity fixed at {count}',
  'orderForm.unitsRange': 'From {min} to {max}',
  'orderForm.unitsEmpty': 'Enter a quantity',
  'orderForm.unitsNotWhole': 'Enter a whole number, digits only',
  'orderForm.unitsLess': 'One step less',
  'orderForm.unitsMore': 'One step more',
  'orderForm.supply': 'Supply',
  'orderForm.stockBelow': 'The merchant lists only {count} left: it may refuse this quantity.',
  'orderForm.confirmIntro': 'Check the order. This is exactly what will be sent to the merchant and charged to your balance.',
  'orderForm.entries': 'Accounts to recharge',
  'orderForm.entriesSingle': '{count, plural, one {Account to recharge (once)} other {Account to recharge (# times)}}',
  'orderForm.balanceNow': 'Balance now',
  'orderForm.balanceAfter': 'Balance after',
  'orderForm.balanceShort': 'Your balance is lower than the total: the merchant will refuse the order unless you top up first.',
  'orderForm.priceMoved': 'The price changed while you were confirming: {old} → {now} per unit.',
  'orderForm.useNewPrice': 'Review with the new price',
  'orderForm.priceGuardNote':
    'Just before sending, the app checks the price with the merchant. If it is higher than the price above, nothing is sent and you are asked again.',
  'orderForm.back': 'Back to the form',
  'orderForm.pay': 'Confirm and pay {amount}',

  'outcome.charged': 'Charged {amount}.',
  'outcome.completed': 'Order completed.',
  'outcome.failed': 'The merchant could not supply this order.',
  'outcome.failedRefunded': '{amount} went back to your balance.',
  'outcome.refunded': '{amount} went back to your balance.',
  'outcome.verifying': 'The merchant needs a verification code for this order.',
  'outcome.unknownState': 'The merchant reports a state this app does not know: {raw}',


  'withdraw.confirmTitle': 'Withdraw this order?',
  'withdraw.confirmSure': 'The merchant has not received it: it is dropped and nothing is charged.',
  'withdraw.confirmUncertain':
    'The merchant may have received it. The app asks first and withdraws it only if the merchant does not have it; it is never sent again.',
  'withdraw.ok': 'Withdraw',
  'withdraw.keep': 'Keep it',
  'withdraw.outcome.withdrawn': 'Withdrawn. Nothing was sent to the merchant and nothing was charged.',
  'withdraw.outcome.checking':
    'The merchant cannot be reached right now. The order will never be sent again; the app checks with the merchant as soon as it answers and withdraws it if the merchant does not have it.',
  'withdraw.outcome.merchantHasOrder': 'The merchant already has this order, so it cannot be withdrawn. Cancel it instead if the merchant allows.',

  'priceGuard.title': 'The price rose before the order was sent',
  'priceGuard.body': 'Nothing was sent and nothing was charged. Pay the new price, or withdraw the order.',
  'priceGuard.confirmedUnit': 'You confirmed (unit)',
  'priceGuard.nowUnit': 'Merchant asks now (unit)',
  'priceGuard.confirmedTotal': 'You confirmed (total)',
  'priceGuard.nowTotal': 'New total',
  'priceGuard.accept': 'Pay the new price, {amount}',

  'unavailable.productUnavailable': 'The merchant stopped selling this product',
  'unavailable.variantUnavailable': 'The merchant stopped selling this variant',
  'unavailable.variantGone': 'The merchant no longer lists this variant',
  'unavailable.outOfStock': 'The merchant has too little stock for this order',
  'unavailable.other': 'The merchant cannot supply this order now',
  'unavailable.body': 'It was checked just before sending: nothing was sent and nothing was charged. Try again later, or withdraw it.',
  'unavailable.retry': 'Check again and send',

  'supply.available': 'Available',
  'supply.availableLeft': 'Available · {count} left',
  'supply.availableUnlimited': 'Available · no limit',
  'supply.outOfStock': 'Out of stock',
  'supply.unavailable': 'Not for sale',
  'supply.blockedOutOfStock': 'Out of stock: the merchant cannot supply it now.',
  'supply.blockedUnavailable': 'The merchant does not sell this now.',
  'supply.blockedUnknown': 'The merchant reports a status this app does not know ({raw}): it cannot be bought here.',
  'product.supply': 'Status',

  'actions.codeRejected': 'The merchant did not accept the verification code and asks for it again.',
  'actions.checking': 'Checking the order’s status with the merchant before offering its actions…',

  'detail.titlePending': '{product} (no merchant order number yet)',
  'detail.notNumbered': 'Not yet numbered by the merchant',
  'detail.refreshing': 'Checking with the merchant…',
  'detail.refreshFailed': 'Could not reach the merchant; status as of {time}.',
  'detail.unitPriceConfirmed': 'Unit price (as you confirmed)',
  'detail.totalConfirmed': 'Total (as you confirmed)',
  'detail.totalCharged': 'Total charged',
  'detail.recharged': 'Recharged account',
  'order.merchantCode': "{code} (the merchant's code)",
  'detail.chargedMore': 'The merchant charged {charged} per unit although you confirmed {confirmed}. Open an after-sales case to get the difference back.',
} as const;

export type OrderMessageKey = keyof typeof orderEn;
