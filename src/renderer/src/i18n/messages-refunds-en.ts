// English words of an order's refunds as the list and the detail show them (contract §7.3: pending,
// succeeded, rejected; an unknown state raw), of where an export went in the audit log, and of a batch
// row's failure; merged into messages-en.ts. messages-refunds-zh-cn.ts has the same keys.
export const refundsEn = {
  'refund.tag.pending': 'Refund in progress {amount}',
  'refund.tag.refunded': 'Refunded {amount}',
  'refund.tag.partlyRefunded': 'Partly refunded {amount} of {total}',
  'refund.tag.unknown': 'Refund state unknown ({raw})',
  'refund.list.title': 'Refunds',
  'refund.list.reason': 'Reason: {reason}',
  'refund.list.merchantNote': 'Merchant: {note}',
  'refund.list.refused': 'The merchant refused the request: {problem}',
  'audit.detail.downloaded': 'Downloaded in the browser ({file})',
} as const satisfies Record<string, string>;
