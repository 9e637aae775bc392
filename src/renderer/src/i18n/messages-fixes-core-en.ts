// English labels of issue 14's core fixes: the audit log's rows worded from their facts, and the
// webhook health panel per mode; merged into messages-en.ts. messages-fixes-core-zh-cn.ts has the same keys.
export const fixesCoreEn = {
  'audit.subject.card': '{order} {card}',
  'audit.subject.order': 'Order {order}',
  'audit.subject.cards': '{cards}',
  'audit.subject.cardsMore': '{cards} and {more, plural, one {# more card} other {# more cards}}',
  'audit.subject.product': 'Every card of product {productRef}',
  'audit.subject.dateRange': 'Cards received {from} to {to}',
  'audit.subject.notExported': 'Cards not yet exported',
  'audit.subject.unnumbered': '{product} (not yet numbered)',
  'audit.subject.unknownProduct': 'An order',
  'audit.detail.copied.cardNo': 'Card number copied to the clipboard',
  'audit.detail.copied.cardPassword': 'Card password copied to the clipboard',
  'audit.detail.allCards': 'All cards of the order',
  'audit.detail.export.xlsx': 'Password-protected XLSX (AES-256)',
  'audit.detail.export.zip': 'Password-protected ZIP (AES-256) holding a CSV',
  'audit.detail.export.csv': 'Plain CSV, not encrypted: the buyer confirmed the risk',
  'audit.detail.writtenTo': 'Saved to {path}',
  'audit.detail.ackMark.refunded': 'The buyer was told the order was refunded and went on',
  'audit.detail.ackMark.cancelled': 'The buyer was told the order was cancelled and went on',
  'audit.detail.ackMark.partlyRefunded': 'The buyer was told the order was partly refunded and went on',
  'audit.detail.ackCount': 'The buyer was told {count, plural, one {# card belongs} other {# cards belong}} to refunded or cancelled orders and went on',
  'health.mode': 'How orders are updated',
  'health.mode.polling': 'Orders are checked by polling',
  'health.mode.pollingHint': 'The app asks the merchant about each open order now and then. This is a normal mode: nothing is broken. Choose a webhook path above to be told sooner.',
  'health.mode.webhooksLive': 'Webhooks work: the callback address was checked',
  'health.mode.webhooksWaiting': 'Webhooks set up, none confirmed yet: orders are also checked by polling',
  'health.lastReceived': 'Last webhook received',
  'health.noneReceived': 'None since the receiver started',
  'health.oldCallback': '{count, plural, one {# open order was} other {# open orders were}} placed before this callback address was in use. The merchant keeps sending an order\'s updates to the address it was placed with, so the app checks {count, plural, one {it} other {them}} by polling.',
} as const;

export type FixesCoreMessageKey = keyof typeof fixesCoreEn;
