// What every part of the merchant shares: one clock, the stores and the event publisher.
import type { SandboxClock } from '../clock';
import type { AccountStore } from './account-store';
import type { CatalogStore } from './catalog-store';
import type { EventPublisher } from './event-publisher';
import type { SubscriptionStore } from './subscription-store';
import type { CallbackPolicy } from './url-rules';

export interface MerchantSettings {
  /** Orders and refunds move by themselves after processing delays (docs/sandbox.md). */
  autoAdvance: boolean;
  callbackPolicy: CallbackPolicy;
}

export interface MerchantContext {
  clock: SandboxClock;
  accounts: AccountStore;
  catalog: CatalogStore;
  subscriptions: SubscriptionStore;
  publisher: EventPublisher;
  settings: MerchantSettings;
}

/** Sandbox-time delays of the automatic lifecycle, in milliseconds. */
export const PROCESSING_DELAYS = { toProcessing: 2_000, supply: 3_000, refundReview: 5_000 } as const;
