// An order the merchant failed too often (HTTP 500 answers, contract §7.12): it waits for the buyer's
// retry. Same keys in messages-server-failures-zh-cn.ts.
import { INTENT_STATUS_WORDS } from '../../../shared/status-words';
export const serverFailuresEn = {
  'intent.merchant_failing': INTENT_STATUS_WORDS.en.merchant_failing,
  'serverFailing.body':
    'The merchant answered with a server error (HTTP 500) {count, plural, one {once} other {# times}}. The order is kept and nothing more is sent until you retry. A retry first asks the merchant whether it already has this order, so it is never charged twice.',
  'serverFailing.requestIds': 'The merchant\'s request IDs (for its support):',
  'serverFailing.retry': 'Retry',
};
