// Enum-like values of interface v1 arrive as plain strings (the schemas never reject a new value,
// interface v1 §9.3) and are classified here. An unrecognised value is kept raw as `unknown` so that it can
// be shown as received; every predicate below answers false for it, so an unknown order state can
// never be taken for success, an unknown availability never for purchasable.

export type Classified<T extends string> = { readonly kind: 'known'; readonly value: T } | { readonly kind: 'unknown'; readonly raw: string };

/**
 * Builds a classifier over a fixed list. Matching is exact (case-sensitive) and uses a Set, so
 * values such as "constructor" or "Completed" are unknown rather than found on a prototype.
 */
function classifierOf<T extends string>(known: readonly T[]): (raw: string) => Classified<T> {
  const set: ReadonlySet<string> = new Set<string>(known);
  const isKnown = (raw: string): raw is T => set.has(raw);
  return (raw) => (isKnown(raw) ? { kind: 'known', value: raw } : { kind: 'unknown', raw });
}

function toClassified<T extends string>(value: string | Classified<T>, classify: (raw: string) => Classified<T>): Classified<T> {
  return typeof value === 'string' ? classify(value) : value;
}

/** The raw text of a classified value, for display ("unknown: shipped"). */
export function rawValue<T extends string>(value: Classified<T>): string {
  return value.kind === 'known' ? value.value : value.raw;
}

// Interface v1 §3.1 / contract §3, 4: product and variant availability.
export const AVAILABILITIES = ['available', 'unavailable'] as const;
export type Availability = (typeof AVAILABILITIES)[number];
export const classifyAvailability = classifierOf<Availability>(AVAILABILITIES);
/** Only an explicit `available` may be offered for purchase. */
export function isPurchasable(availability: string | Classified<Availability>): boolean {
  const c = toClassified(availability, classifyAvailability);
  return c.kind === 'known' && c.value === 'available';
}

// Interface v1 §2.4: variant inventoryType.
export const INVENTORY_TYPES = ['tracked', 'unlimited', 'undisclosed'] as const;
export type InventoryType = (typeof INVENTORY_TYPES)[number];
export const classifyInventoryType = classifierOf<InventoryType>(INVENTORY_TYPES);

// Contract §3, 4, 5, 7.4: productType.
export const PRODUCT_TYPES = ['card', 'topup'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const classifyProductType = classifierOf<ProductType>(PRODUCT_TYPES);

// Contract §5: entryMode.
export const ENTRY_MODES = ['none', 'single', 'perUnit'] as const;
export type EntryMode = (typeof ENTRY_MODES)[number];
export const classifyEntryMode = classifierOf<EntryMode>(ENTRY_MODES);

// Contract §5: purchaseFields[].type.
export const PURCHASE_FIELD_TYPES = ['text', 'mobile', 'email', 'integer', 'select'] as const;
export type PurchaseFieldType = (typeof PURCHASE_FIELD_TYPES)[number];
export const classifyPurchaseFieldType = classifierOf<PurchaseFieldType>(PURCHASE_FIELD_TYPES);

// Contract §7.2: order state.
export const ORDER_STATES = ['pending', 'processing', 'verifying', 'completed', 'failed', 'cancelled', 'refunded'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const classifyOrderState = classifierOf<OrderState>(ORDER_STATES);

/**
 * True only for `completed`: the goods were delivered and the order stands. `refunded` is terminal
 * but its money came back, so it is not counted as a success; unknown states are never success.
 */
export function isTerminalSuccess(state: string | Classified<OrderState>): boolean {
  const c = toClassified(state, classifyOrderState);
  return c.kind === 'known' && c.value === 'completed';
}

/** Known states in which supply is over (contract §7.2); polling can slow down. Unknown: false, keep asking. */
export function isSupplyFinished(state: string | Classified<OrderState>): boolean {
  const c = toClassified(state, classifyOrderState);
  return c.kind === 'known' && (c.value === 'completed' || c.value === 'failed' || c.value === 'cancelled' || c.value === 'refunded');
}

/** States that never change again (contract §7.2: `completed` can still be refunded, so it is not one). */
export function isTerminalOrderState(state: string | Classified<OrderState>): boolean {
  const c = toClassified(state, classifyOrderState);
  return c.kind === 'known' && (c.value === 'failed' || c.value === 'cancelled' || c.value === 'refunded');
}

// Contract §7.3: refund state.
export const REFUND_STATES = ['pending', 'succeeded', 'rejected'] as const;
export type RefundState = (typeof REFUND_STATES)[number];
export const classifyRefundState = classifierOf<RefundState>(REFUND_STATES);
/** Money is back only on an explicit `succeeded`. */
export function isRefundSucceeded(state: string | Classified<RefundState>): boolean {
  const c = toClassified(state, classifyRefundState);
  return c.kind === 'known' && c.value === 'succeeded';
}

// Contract §7.2: allowedActions items of an order.
export const ORDER_ACTIONS = ['verificationCode', 'cancel', 'refund', 'aftersale'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];
export const classifyOrderAction = classifierOf<OrderAction>(ORDER_ACTIONS);

// Contract §9.3: allowedActions items of a case.
export const CASE_ACTIONS = ['message'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];
export const classifyCaseAction = classifierOf<CaseAction>(CASE_ACTIONS);

export interface ClassifiedList<T extends string> {
  readonly known: readonly T[];
  readonly unknown: readonly string[];
}

/** Splits an allowedActions list; unknown actions are kept so they can be shown, never offered. */
export function classifyActions<T extends string>(raw: readonly string[], classify: (raw: string) => Classified<T>): ClassifiedList<T> {
  const known: T[] = [];
  const unknown: string[] = [];
  for (const item of raw) {
    const c = classify(item);
    if (c.kind === 'known') known.push(c.value);
    else unknown.push(c.raw);
  }
  return { known, unknown };
}

/** Whether an action may be called: only when listed exactly (interface v1 §4.2.4). */
export function isActionAllowed<T extends string>(allowedActions: readonly string[], action: T): boolean {
  return allowedActions.includes(action);
}

// Contract §9.3: case state.
export const CASE_STATES = ['open', 'replied', 'resolved', 'closed'] as const;
export type CaseState = (typeof CASE_STATES)[number];
export const classifyCaseState = classifierOf<CaseState>(CASE_STATES);
/** Known states in which the case is still being worked on (contract §9.3). Unknown: false. */
export function isCaseActive(state: string | Classified<CaseState>): boolean {
  const c = toClassified(state, classifyCaseState);
  return c.kind === 'known' && (c.value === 'open' || c.value === 'replied');
}

// Contract §9.1: after-sales category.
export const AFTERSALE_CATEGORIES = ['cardInvalid', 'cardUsed', 'notReceived', 'wrongAmount', 'other'] as const;
export type AftersaleCategory = (typeof AFTERSALE_CATEGORIES)[number];
export const classifyAftersaleCategory = classifierOf<AftersaleCategory>(AFTERSALE_CATEGORIES);

// Contract §9.3: message sender.
export const MESSAGE_SENDERS = ['buyer', 'merchant'] as const;
export type MessageSender = (typeof MESSAGE_SENDERS)[number];
export const classifyMessageSender = classifierOf<MessageSender>(MESSAGE_SENDERS);

// Contract §3, 6: subscriptionState.
export const SUBSCRIPTION_STATES = ['subscribed', 'expired', 'unsubscribed'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
export const classifySubscriptionState = classifierOf<SubscriptionState>(SUBSCRIPTION_STATES);

// Contract §1 / interface v1 §3.3: accessState.
export const ACCESS_STATES = ['active', 'suspended'] as const;
export type AccessState = (typeof ACCESS_STATES)[number];
export const classifyAccessState = classifierOf<AccessState>(ACCESS_STATES);
/** Only an explicit `active` account is treated as usable; unknown is shown as unknown. */
export function isAccessActive(state: string | Classified<AccessState>): boolean {
  const c = toClassified(state, classifyAccessState);
  return c.kind === 'known' && c.value === 'active';
}

// Interface v1 §6.3: product.changed hints. Receivers use the whole snapshot, so an unknown hint is harmless.
export const PRODUCT_CHANGED_PROPERTIES = ['availability', 'brand', 'variants', 'price', 'inventoryType', 'remainingUnits', 'purchaseSchemaRevision'] as const;
export type ProductChangedProperty = (typeof PRODUCT_CHANGED_PROPERTIES)[number];
export const classifyProductChangedProperty = classifierOf<ProductChangedProperty>(PRODUCT_CHANGED_PROPERTIES);

// Contract §10.1: order.changed hints.
export const ORDER_CHANGED_PROPERTIES = ['state', 'refunds', 'allowedActions'] as const;
export type OrderChangedProperty = (typeof ORDER_CHANGED_PROPERTIES)[number];
export const classifyOrderChangedProperty = classifierOf<OrderChangedProperty>(ORDER_CHANGED_PROPERTIES);

// Interface v1 §6: the four event kinds.
export const WEBHOOK_EVENT_TYPES = ['product.changed', 'order.changed', 'order.credentials.ready', 'aftersale.message.created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const classifyWebhookEventType = classifierOf<WebhookEventType>(WEBHOOK_EVENT_TYPES);
