// English words added for issue 26's layout fixes (one sentence said once, an order that will never
// have a merchant number, the cancel dialog's buttons); merged into messages-en.ts.
// messages-layout-zh-cn.ts has the same keys.
export const layoutEn = {
  // Below the "Withdrawn" title: the rest of the sentence, not the title again.
  'withdraw.outcome.withdrawnDetail': 'Nothing was sent to the merchant and nothing was charged.',
  // An order withdrawn before it was sent: the merchant never numbers it.
  'detail.notSent': 'Not sent to the merchant',
  'action.cancelConfirmNoAmount': 'Cancel the order and refund it to your balance?',
  'action.cancelKeep': 'Keep the order',
} as const;
