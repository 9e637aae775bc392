// The order state machine (contract §7.2): every move with its money effects (automatic refunds of
// failed and cancelled orders), stock, events, and the automatic next step.
import { randomBytes } from 'node:crypto';
import type { Account } from './account-store';
import { generateCards } from './card-generator';
import type { OrderChangedProperty } from './event-publisher';
import { PROCESSING_DELAYS, type MerchantContext } from './merchant-context';
import { allowedActions, pendingRefund, type Order, type OrderState, type Refund } from './order-records';

export type AdvanceTarget = 'processing' | 'verifying' | 'completed' | 'failed' | 'cancelled' | 'refund.succeeded' | 'refund.rejected';

/** Moves the control API may make, from each state: exactly the transitions of contract §7.2. */
const CONTROL_MOVES: Record<Exclude<AdvanceTarget, `refund.${string}`>, readonly OrderState[]> = {
  processing: ['pending', 'verifying'],
  verifying: ['processing'],
  completed: ['processing'],
  failed: ['processing'],
  cancelled: ['pending', 'verifying'],
};

export class IllegalMove extends Error {}

export class OrderLifecycle {
  constructor(private readonly ctx: MerchantContext) {}

  private account(order: Order): Account {
    const account = this.ctx.accounts.byAccountRef(order.accountRef);
    if (!account) throw new Error(`order ${order.clientOrderRef} has no account`);
    return account;
  }

  /** Records a change of the order and tells the member about it. */
  private touch(order: Order, change: () => void, properties: OrderChangedProperty[]): void {
    const before = allowedActions(order).join(',');
    const stateBefore = order.state;
    change();
    const now = this.ctx.clock.nowSeconds();
    order.revision += 1;
    order.updatedAt = now;
    const changed = new Set(properties);
    if (order.state !== stateBefore) changed.add('state');
    if (allowedActions(order).join(',') !== before) changed.add('allowedActions');
    const ordered: OrderChangedProperty[] = ['state', 'refunds', 'allowedActions'];
    this.ctx.publisher.orderChanged(this.account(order), order, ordered.filter((p) => changed.has(p)));
  }

  private moveTo(order: Order, state: OrderState, extra: () => void = () => undefined): void {
    this.touch(
      order,
      () => {
        order.state = state;
        if (state === 'completed' || state === 'failed' || state === 'cancelled') order.completedAt = this.ctx.clock.nowSeconds();
        extra();
      },
      ['state'],
    );
    this.scheduleNext(order);
  }

  /** The full amount back to the balance and the stock back on the shelf (failed or cancelled orders). */
  private giveBack(order: Order): void {
    const amount = order.totalFen - order.refundedFen;
    if (amount > 0) this.ctx.accounts.refund(this.account(order), order.clientOrderRef, amount, this.ctx.clock.nowSeconds());
    order.refundedFen = order.totalFen;
    const product = this.ctx.catalog.product(order.productRef);
    if (product) this.ctx.catalog.moveStock(product, order.variantRef, order.units);
  }

  toProcessing(order: Order): void {
    this.moveTo(order, 'processing', () => {
      order.verificationHint = null;
    });
  }

  toVerifying(order: Order, hint: string): void {
    this.moveTo(order, 'verifying', () => {
      order.verificationHint = hint;
    });
  }

  complete(order: Order): void {
    this.moveTo(order, 'completed', () => {
      order.verificationHint = null;
      if (order.productType === 'card') order.cards = generateCards(order.units, order.productRef, this.ctx.clock.nowSeconds());
    });
    if (order.cards) this.ctx.publisher.credentialsReady(this.account(order), order);
  }

  fail(order: Order, reason: string): void {
    this.moveTo(order, 'failed', () => {
      order.failureReason = reason;
      order.verificationHint = null;
      this.giveBack(order);
    });
  }

  cancel(order: Order): void {
    this.moveTo(order, 'cancelled', () => {
      order.verificationHint = null;
      this.giveBack(order);
    });
  }

  /** What supply does once processing is over, by the variant's behaviour and the code given. */
  finishSupply(order: Order): void {
    if (order.wrongCode) {
      order.wrongCode = false;
      this.toVerifying(order, '验证码错误，请重新获取验证码后提交 (wrong verification code)');
    } else if (order.supply === 'fail') {
      this.fail(order, '上游供货失败，款项已原路退回 (supplier failed; refunded)');
    } else if (order.supply === 'needsVerification' && !order.codeAccepted) {
      this.toVerifying(order, '短信验证码已发送至充值账号绑定手机 (a code was sent to the account holder)');
    } else {
      this.complete(order);
    }
  }

  addRefund(order: Order, refund: Refund): void {
    this.touch(order, () => order.refunds.push(refund), ['refunds']);
    this.scheduleRefund(order, refund);
  }

  resolveRefund(order: Order, refund: Refund, outcome: 'succeeded' | 'rejected'): void {
    refund.timer?.cancel();
    this.touch(
      order,
      () => {
        refund.state = outcome;
        refund.resolvedAt = this.ctx.clock.nowSeconds();
        if (outcome === 'rejected') {
          refund.merchantNote = '商户审核未通过 (refused by the merchant)';
          return;
        }
        this.ctx.accounts.refund(this.account(order), order.clientOrderRef, refund.amountFen, refund.resolvedAt);
        order.refundedFen += refund.amountFen;
        if (order.refundedFen >= order.totalFen) order.state = 'refunded';
      },
      ['refunds'],
    );
  }

  /** A move asked for by the control API; refused with IllegalMove when the state machine forbids it. */
  advance(order: Order, to: AdvanceTarget): void {
    if (to === 'refund.succeeded' || to === 'refund.rejected') {
      const refund = pendingRefund(order);
      if (!refund) throw new IllegalMove('the order has no pending refund');
      this.resolveRefund(order, refund, to === 'refund.succeeded' ? 'succeeded' : 'rejected');
      return;
    }
    if (!CONTROL_MOVES[to].includes(order.state)) throw new IllegalMove(`cannot move an order from ${order.state} to ${to}`);
    order.timer?.cancel();
    order.timer = null;
    if (to === 'processing') this.toProcessing(order);
    else if (to === 'verifying') this.toVerifying(order, '请提交短信验证码 (enter the code sent by SMS)');
    else if (to === 'completed') this.complete(order);
    else if (to === 'failed') this.fail(order, '商户标记失败 (failed by the merchant)');
    else this.cancel(order);
  }

  /** Schedules the next automatic step of a pending or processing order. */
  scheduleNext(order: Order): void {
    order.timer?.cancel();
    order.timer = null;
    if (!this.ctx.settings.autoAdvance) return;
    if (order.state === 'pending') {
      order.timer = this.ctx.clock.setTimeout(() => this.toProcessing(order), PROCESSING_DELAYS.toProcessing);
    } else if (order.state === 'processing') {
      order.timer = this.ctx.clock.setTimeout(() => this.finishSupply(order), PROCESSING_DELAYS.supply);
    }
  }

  private scheduleRefund(order: Order, refund: Refund): void {
    if (!this.ctx.settings.autoAdvance) return;
    refund.timer = this.ctx.clock.setTimeout(() => {
      if (refund.state === 'pending') this.resolveRefund(order, refund, /reject/i.test(refund.reason) ? 'rejected' : 'succeeded');
    }, PROCESSING_DELAYS.refundReview);
  }
}

export function newRefundRef(): string {
  return `RF${randomBytes(8).toString('hex').toUpperCase()}`;
}
