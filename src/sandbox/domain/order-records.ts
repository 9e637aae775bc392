// Orders as the merchant keeps them, and the rules derived from them: which actions are allowed in
// which state (contract §7.2) and what the interface shows (contract §7.4).
import { fenToYuanNumber } from '../../shared/money';
import type { SandboxTimer } from '../clock';
import type { ProductType, SupplyBehaviour } from './catalog-types';

export type OrderState = 'pending' | 'processing' | 'verifying' | 'completed' | 'failed' | 'cancelled' | 'refunded';
export type OrderAction = 'verificationCode' | 'cancel' | 'refund' | 'aftersale';
export type RefundState = 'pending' | 'succeeded' | 'rejected';

export interface Refund {
  refundRef: string;
  clientRefundRef: string;
  amountFen: number;
  /** The amount as requested (null = all refundable), compared on a retry. */
  requestedFen: number | null;
  state: RefundState;
  reason: string;
  merchantNote: string | null;
  createdAt: number;
  resolvedAt: number | null;
  /** The automatic review, cancelled when the control API decides first. */
  timer: SandboxTimer | null;
}

export interface Card {
  card_no: string;
  card_password: string;
  expiresAt: number | null;
}

export interface Order {
  accountRef: number;
  clientOrderRef: string;
  platformOrderRef: string;
  productRef: number;
  variantRef: number;
  productName: string;
  variantTitle: string;
  productType: ProductType;
  units: number;
  unitPriceFen: number;
  totalFen: number;
  /** The compared content of interface v1 §4.2.1, canonical JSON. */
  contentKey: string;
  entryCount: number;
  orderCallbackUrl: string | null;
  imageUrl: string | null;
  state: OrderState;
  revision: number;
  failureReason: string | null;
  verificationHint: string | null;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
  refundedFen: number;
  refunds: Refund[];
  cards: Card[] | null;
  supply: SupplyBehaviour;
  /** The last verification code was wrong: supply returns the order to `verifying`. */
  wrongCode: boolean;
  /** A right code was given: supply completes instead of asking again. */
  codeAccepted: boolean;
  /** Whether a case on this order is open (it blocks a new one). */
  openCase: boolean;
  /** The next automatic step, cancelled when the order moves otherwise. */
  timer: SandboxTimer | null;
}

export function refundableFen(order: Order): number {
  return order.totalFen - order.refundedFen;
}

export function pendingRefund(order: Order): Refund | undefined {
  return order.refunds.find((r) => r.state === 'pending');
}

export function allowedActions(order: Order): OrderAction[] {
  const caseAllowed = !order.openCase;
  switch (order.state) {
    case 'pending':
      return ['cancel'];
    case 'processing':
      return [];
    case 'verifying':
      return ['verificationCode', 'cancel'];
    case 'completed': {
      const actions: OrderAction[] = [];
      if (refundableFen(order) > 0 && !pendingRefund(order)) actions.push('refund');
      if (caseAllowed) actions.push('aftersale');
      return actions;
    }
    case 'failed':
    case 'refunded':
      return caseAllowed ? ['aftersale'] : [];
    case 'cancelled':
      return [];
  }
}

/** The order as the interface shows it (contract §7.4); cards only where asked for. */
export function orderToWire(order: Order, withCards: boolean): Record<string, unknown> {
  return {
    clientOrderRef: order.clientOrderRef,
    platformOrderRef: order.platformOrderRef,
    productRef: order.productRef,
    variantRef: order.variantRef,
    productName: order.productName,
    variantTitle: order.variantTitle,
    productType: order.productType,
    units: order.units,
    unitPrice: fenToYuanNumber(order.unitPriceFen),
    totalAmount: fenToYuanNumber(order.totalFen),
    refundedAmount: fenToYuanNumber(order.refundedFen),
    state: order.state,
    allowedActions: allowedActions(order),
    revision: order.revision,
    failureReason: order.failureReason,
    verificationHint: order.verificationHint,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    completedAt: order.completedAt,
    orderCallbackUrl: order.orderCallbackUrl,
    imageUrl: order.imageUrl,
    entryCount: order.entryCount,
    refunds: order.refunds.map((r) => ({
      refundRef: r.refundRef,
      clientRefundRef: r.clientRefundRef,
      amount: fenToYuanNumber(r.amountFen),
      state: r.state,
      reason: r.reason,
      merchantNote: r.merchantNote,
      createdAt: r.createdAt,
      resolvedAt: r.resolvedAt,
    })),
    card_list: withCards && order.cards ? order.cards.map((c) => ({ ...c })) : null,
  };
}
