// The buyer's actions on an order (contract §7.6), each allowed only when listed in allowedActions.
// Per-order cooldowns are enforced before these run, by the rate limiter.
import { ApiError } from '../http/api-error';
import { CLIENT_REF, optionalString, optionalYuan, requireString } from '../http/input-readers';
import type { JsonObject } from '../http/request-body';
import type { MerchantContext } from './merchant-context';
import { newRefundRef, type OrderLifecycle } from './order-lifecycle';
import { allowedActions, refundableFen, type Order } from './order-records';

const WRONG_CODE = '000000';

export class OrderActions {
  constructor(
    private readonly ctx: MerchantContext,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  submitVerificationCode(order: Order, body: JsonObject): Order {
    const code = requireString(body, 'verificationCode', { min: 4, max: 8, pattern: /^\d{4,8}$/ });
    if (!allowedActions(order).includes('verificationCode')) throw new ApiError('OTP_NOT_ALLOWED', 'this order does not take a verification code now');
    order.wrongCode = code === WRONG_CODE;
    order.codeAccepted = !order.wrongCode;
    this.lifecycle.toProcessing(order);
    return order;
  }

  cancel(order: Order, body: JsonObject): Order {
    optionalString(body, 'reason', { min: 0, max: 200 });
    if (!allowedActions(order).includes('cancel')) throw new ApiError('CANCELLATION_NOT_ALLOWED', 'this order cannot be cancelled');
    order.timer?.cancel();
    this.lifecycle.cancel(order);
    return order;
  }

  requestRefund(order: Order, body: JsonObject): Order {
    const clientRefundRef = requireString(body, 'clientRefundRef', { max: 64, pattern: CLIENT_REF });
    const requestedFen = optionalYuan(body, 'amount');
    const reason = requireString(body, 'reason', { max: 200, trim: true });
    const existing = order.refunds.find((r) => r.clientRefundRef === clientRefundRef);
    if (existing) {
      if (existing.requestedFen !== requestedFen || existing.reason !== reason) {
        throw new ApiError('IDEMPOTENCY_CONFLICT', 'clientRefundRef was used with different content');
      }
      return order;
    }
    if (!allowedActions(order).includes('refund')) throw new ApiError('REFUND_NOT_ALLOWED', 'no refund is possible on this order now');
    const amountFen = requestedFen ?? refundableFen(order);
    if (amountFen > refundableFen(order)) throw new ApiError('INVALID_ARGUMENT', 'amount exceeds the refundable amount');
    this.lifecycle.addRefund(order, {
      refundRef: newRefundRef(),
      clientRefundRef,
      amountFen,
      requestedFen,
      state: 'pending',
      reason,
      merchantNote: null,
      createdAt: this.ctx.clock.nowSeconds(),
      resolvedAt: null,
      timer: null,
    });
    return order;
  }
}
