// An order the merchant failed too often (HTTP 500 answers, contract §7.12): it waits for the buyer's
// retry. Same keys in messages-server-failures-zh-cn.ts.
export const serverFailuresEn = {
  'intent.merchant_failing': 'Waiting – the merchant failed this order',
  'serverFailing.body':
    'The merchant answered with a server error (HTTP 500) {count, plural, one {once} other {# times}}. The order is kept and nothing more is sent until you retry. A retry first asks the merchant whether it already has this order, so it is never charged twice.',
  'serverFailing.requestIds': 'The merchant\'s request IDs (for its support):',
  'serverFailing.retry': 'Retry',
};
