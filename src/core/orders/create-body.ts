// The body of POST /orders/create, built only from the stored intent.
import type { CreateOrderBody } from '../merchant/merchant-client';
import type { OrderIntent } from './order-intent-store';

/** The create body, built only from the stored row: every resend is byte-for-byte the same request. */
export function createBodyOf(intent: OrderIntent): CreateOrderBody {
  const body: CreateOrderBody = { clientOrderRef: intent.clientOrderRef, productRef: intent.productRef, units: intent.units };
  if (intent.variantRef !== 0) body.variantRef = intent.variantRef;
  // Card products take neither (interface v1 §4.2.2); top-ups must carry the revision they were validated with.
  if (intent.productType !== 'card') {
    if (intent.purchaseSchemaRevision !== null) body.purchaseSchemaRevision = intent.purchaseSchemaRevision;
    body.purchaseEntries = intent.purchaseEntries ?? [];
  }
  if (intent.orderCallbackUrl !== null) body.orderCallbackUrl = intent.orderCallbackUrl;
  if (intent.imageUrl !== null) body.imageUrl = intent.imageUrl;
  return body;
}
