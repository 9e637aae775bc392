// English words of templates on demand (contract §7.10): an order kept as "needs order form" while
// the merchant is away, and the order dialog's offline step; merged into messages-en.ts.
// messages-templates-zh-cn.ts has the same keys.
import { INTENT_STATUS_WORDS } from '../../../shared/status-words';

export const templatesEn = {
  'intent.needs_template': INTENT_STATUS_WORDS.en.needs_template,
  'orderTemplate.offlineTitle': 'The merchant cannot be reached, and this product’s order form has not been loaded yet',
  'orderTemplate.offlineCard': 'You can queue the order now. It is sent when the merchant is back, and only after its order form has been loaded and your quantity checked against it.',
  'orderTemplate.offlineTopup': 'You can queue the order now. When the merchant is back, the app loads the order form and asks you for the top-up details before anything is sent.',
  'orderTemplate.units': 'Quantity',
  'orderTemplate.unitPrice': 'Unit price',
  'orderTemplate.total': 'Total, at most',
  'orderTemplate.priceCap': 'You will never pay more than this unit price: if the merchant asks more, the order waits for you.',
  'orderTemplate.noPrice': 'The price of this item is not known yet, so it cannot be queued. Try again when the merchant is back.',
  'orderTemplate.queue': 'Queue as “waiting for order form”',
  'orderTemplate.waiting': 'The merchant cannot be reached. The order is kept, and sent once the order form has been loaded and checked; nothing is sent or charged before that.',
  'orderTemplate.formArrivedTitle': 'Complete the order form',
  'orderTemplate.formArrived': 'The order form has arrived and needs details you could not give offline. Fill it in and confirm to send the order.',
} as const;
