// What the buyer is told when money or a watched product moves: the balance pushed (and a low balance
// notified once per crossing of the buyer's line, core/books/low-balance.ts), orders that completed,
// failed or got their cards, watched products that changed. The balance is read again shortly after
// anything that can move money (an order accepted or refused, its state, a refund's state or amount,
// whoever stored it: the app's own action, a webhook, a tracker poll; a finished catalog sync), so the
// header shows the merchant's balance within seconds and a crossing is seen (contract §12.1).
import type { AccountView } from '../../shared/ipc/views/connection';
import type { NotificationView } from '../../shared/ipc/views/notifications';
import type { Account } from '../../shared/merchant/account';
import { notificationText, type NotificationFacts } from '../../shared/notification-text';
import type { Database } from 'better-sqlite3';
import { noteBalanceAgainstLine } from '../books/low-balance';
import type { MerchantServices } from '../create-core';
import type { SecretAwareLogger } from '../logging/logger';
import type { AppEvents } from './app-events';
import type { OrderTransition, WatchedProductChange } from './change-watch';
import { toAccountView } from './view-mapping';

/** Real ms to gather order changes before the balance is read again. */
const ACCOUNT_REFRESH_DELAY_MS = 1_000;

export interface AppNotices {
  /** An account answer: pushed as account.changed, a low balance notified once; returns its view. */
  accountSeen(account: Account): AccountView;
  ordersMoved(transitions: readonly OrderTransition[]): void;
  productsMoved(changes: readonly WatchedProductChange[]): void;
  /** Prices recorded in the history (any product, any writer): the catalog's screens read them again. */
  pricesRecorded(productRefs: readonly number[]): void;
  /** Something may have moved the balance (a catalog sync ended): read it again shortly. */
  balanceMayHaveMoved(): void;
  /** Cancels a pending balance read. */
  stop(): void;
}

export interface AppNoticesOptions {
  readonly events: AppEvents;
  readonly logger: SecretAwareLogger;
  readonly db: Database;
  /** The buyer's low-balance line now (fen; 0: off), read at each balance. */
  readonly lowBalanceFen: () => number;
  readonly nowSeconds: () => number;
  /** The services whose client reads the balance again (none running: not read). */
  readonly running: () => MerchantServices | null;
}

export function createAppNotices({ events, logger, db, lowBalanceFen, nowSeconds, running }: AppNoticesOptions): AppNotices {
  let accountTimer: ReturnType<typeof setTimeout> | null = null;

  /** Facts in, the English wording added (displays word it again in the buyer's language). */
  const notify = (facts: NotificationFacts & Omit<NotificationView, 'title' | 'body'>): void => events.emit('app.notification', { ...facts, ...notificationText(facts, 'en') });

  const accountSeen = (account: Account): AccountView => {
    const view = toAccountView(account, nowSeconds());
    events.emit('account.changed', view);
    let crossed = false;
    try {
      crossed = noteBalanceAgainstLine(db, view.balanceFen, lowBalanceFen(), nowSeconds());
    } catch (error) {
      logger.warn('low-balance line not checked', { error: error instanceof Error ? error.message : 'unknown' });
    }
    if (crossed) notify({ kind: 'lowBalance', balanceFen: view.balanceFen, currency: view.currency });
    return view;
  };

  const refreshAccountSoon = (): void => {
    if (accountTimer !== null || running() === null) return;
    accountTimer = setTimeout(() => {
      accountTimer = null;
      const services = running();
      if (services === null) return;
      services.client.getAccount().then(
        ({ data }) => void accountSeen(data),
        (error: unknown) => logger.info('balance refresh failed', { error: error instanceof Error ? error.message : 'unknown' }),
      );
    }, ACCOUNT_REFRESH_DELAY_MS);
    accountTimer.unref();
  };

  return {
    accountSeen,
    ordersMoved(transitions) {
      events.emit('orders.changed', { clientOrderRefs: transitions.map((t) => t.clientOrderRef) });
      let moneyMoved = false;
      for (const t of transitions) {
        // Accepted orders are charged; rejected ones may say the balance ran out: either way read it again.
        if (t.intentStatus !== t.previousIntentStatus && (t.intentStatus === 'accepted' || t.intentStatus === 'rejected')) moneyMoved = true;
        // A refund credited (or its amount moved) leaves the order's state as it was: the balance moved all the same.
        if (t.refunds !== t.previousRefunds) moneyMoved = true;
        if (t.state !== t.previousState) {
          moneyMoved = true;
          if (t.state === 'completed') notify({ kind: 'orderCompleted', productName: t.productName, platformOrderRef: t.platformOrderRef, clientOrderRef: t.clientOrderRef });
          if (t.state === 'failed') notify({ kind: 'orderFailed', productName: t.productName, platformOrderRef: t.platformOrderRef, clientOrderRef: t.clientOrderRef });
        }
        if (t.previousCards === 0 && t.cards > 0) {
          notify({ kind: 'credentialsReady', productName: t.productName, platformOrderRef: t.platformOrderRef, cards: t.cards, clientOrderRef: t.clientOrderRef });
        }
      }
      if (moneyMoved) refreshAccountSoon();
    },
    balanceMayHaveMoved: () => refreshAccountSoon(),
    productsMoved(changes) {
      events.emit('catalog.changed', { productRefs: changes.map((c) => c.productRef) });
      for (const c of changes) {
        if (!c.notable) continue;
        const priceMoved = c.priceFromFen !== c.previousPriceFromFen && c.priceFromFen !== null;
        notify({ kind: 'productChanged', productName: c.name, productRef: c.productRef, ...(priceMoved ? { priceFromFen: c.priceFromFen } : {}) });
      }
    },
    pricesRecorded: (productRefs) => events.emit('catalog.changed', { productRefs: [...productRefs] }),
    stop() {
      if (accountTimer !== null) clearTimeout(accountTimer);
      accountTimer = null;
    },
  };
}
