// Placing an order and building its form with the template it needs (contract §7.10), the one home
// of the "merchant away, no trusted template" rule for every host (the app's orders.template and
// orders.place, the batch path through orders.place, the CLI's `order create`):
// - a trusted cached template: used, no request;
// - otherwise, while the connection state says the merchant answers: fetched now as the buyer's
//   request (template-source.ts);
// - the merchant unreachable (the connection state is offline, degraded or failing its certificate,
//   or the fetch fails in transport): the form cannot be built (TemplateOfflineError), and placing
//   records the intent as needs_template, with what the buyer confirmed, never sent without a template.
import type { PurchaseTemplate } from '../../shared/merchant/template';
import type { SecretAwareLogger } from '../logging/logger';
import { MerchantTransportError } from '../merchant/merchant-errors';
import { TemplateOfflineError } from './order-errors';
import type { OrderIntent } from './order-intent-store';
import type { OrderIntents, PlaceOrderInput } from './order-intents';
import type { TemplateSource } from './template-source';

export interface OrderPlacementDeps {
  readonly templates: TemplateSource;
  readonly intents: Pick<OrderIntents, 'placeOrder' | 'placeAwaitingTemplate'>;
  /** False while the connection state says the merchant does not answer (offline, degraded, certificate). */
  readonly reachable: () => boolean;
  readonly logger: SecretAwareLogger;
}

export interface OrderPlacement {
  /** The template for the order form: trusted cached, or fetched; TemplateOfflineError when the merchant is away. */
  templateForForm(productRef: number, variantRef: number): Promise<PurchaseTemplate>;
  /** Records the intent (queued, checked against its template; or needs_template when the merchant is away). */
  place(input: PlaceOrderInput): Promise<OrderIntent>;
}

export function createOrderPlacement(deps: OrderPlacementDeps): OrderPlacement {
  const { templates, intents, reachable, logger } = deps;

  /** The trusted template, fetched if need be; null when the merchant cannot be reached for it. */
  const templateOrAway = async (productRef: number, variantRef: number): Promise<PurchaseTemplate | null> => {
    const cached = templates.trusted(productRef, variantRef);
    if (cached !== null) return cached;
    if (!reachable()) return null;
    try {
      return await templates.templateFor(productRef, variantRef);
    } catch (error) {
      if (error instanceof MerchantTransportError) {
        logger.warn('the purchase template could not be fetched: the merchant is unreachable', { productRef, variantRef, reason: error.reason });
        return null;
      }
      throw error;
    }
  };

  return {
    async templateForForm(productRef, variantRef) {
      const template = await templateOrAway(productRef, variantRef);
      if (template === null) throw new TemplateOfflineError(productRef, variantRef);
      return template;
    },
    async place(input) {
      const template = await templateOrAway(input.productRef, input.variantRef ?? 0);
      if (template !== null) return intents.placeOrder(input, template);
      return intents.placeAwaitingTemplate(input);
    },
  };
}
