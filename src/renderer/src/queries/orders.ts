// Orders: list, detail, purchase template, placing and confirming, and the merchant's actions.
import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import { withdrawResultSchema, type OrderDetail, type PlaceOrderInput, type WithdrawResult } from '../../../shared/ipc/views/orders';
import { keys } from './keys';

export interface OrderFilter {
  readonly intentStatus?: string;
  readonly state?: string;
  /** One merchant's orders only (contract §15.2); absent: every merchant's. */
  readonly profile?: string;
}

export function useOrders(filter: OrderFilter, enabled: boolean) {
  return useQuery({
    queryKey: keys.orderList(filter),
    queryFn: () => api.orders.list({ ...filter, limit: 500 }),
    enabled,
  });
}

export function useOrder(clientOrderRef: string | null) {
  return useQuery({
    queryKey: keys.order(clientOrderRef ?? ''),
    queryFn: () => api.orders.get({ clientOrderRef: clientOrderRef ?? '' }),
    enabled: clientOrderRef !== null,
  });
}

export function useTemplate(productRef: number, variantRef: number, profileId?: string) {
  // Always fetched afresh when the form opens: the template decides what is sent. Each merchant has its own.
  return useQuery({
    queryKey: profileId === undefined ? keys.template(productRef, variantRef) : [...keys.template(productRef, variantRef), profileId],
    queryFn: () => api.orders.template({ productRef, variantRef, ...(profileId === undefined ? {} : { profileId }) }),
    staleTime: 0,
  });
}

function useOrderSettled() {
  const client = useQueryClient();
  return (detail: OrderDetail): void => {
    client.setQueryData(keys.order(detail.clientOrderRef), detail);
    void client.invalidateQueries({ queryKey: keys.orders });
    void client.invalidateQueries({ queryKey: keys.account });
  };
}

export function usePlaceOrder() {
  const settled = useOrderSettled();
  // profileId: the merchant the buyer confirmed at (absent: the active profile).
  return useMutation({ mutationFn: (input: PlaceOrderInput & { profileId?: string }) => api.orders.place(input), onSuccess: settled });
}

export interface ConfirmOrderInput {
  readonly clientOrderRef: string;
  readonly units: number;
  readonly unitPriceFen: number;
  readonly purchaseEntries?: Record<string, string>[];
}

export function useConfirmOrder() {
  const settled = useOrderSettled();
  return useMutation({ mutationFn: (input: ConfirmOrderInput) => api.orders.confirm(input), onSuccess: settled });
}

/** The buyer's retry of an order the merchant failed too often (contract §7.12): looked up first, then the same ref. */
export function useRetryFailingOrder(clientOrderRef: string) {
  const settled = useOrderSettled();
  return useMutation({ mutationFn: () => api.orders.retryFailing({ clientOrderRef }), onSuccess: settled });
}

const withdrawKey = (clientOrderRef: string) => ['orders', 'withdraw', clientOrderRef] as const;

export function useWithdrawOrder(clientOrderRef: string) {
  const settled = useOrderSettled();
  return useMutation({
    mutationKey: withdrawKey(clientOrderRef),
    mutationFn: () => api.orders.withdraw({ clientOrderRef }),
    onSuccess: (result: WithdrawResult) => settled(result.order),
  });
}

/**
 * The answer of the latest withdraw of this order, wherever it was clicked (the panel that offered
 * it may be gone once the order is withdrawn), so the screen can still say which case applied.
 */
export function useWithdrawOutcome(clientOrderRef: string): WithdrawResult['outcome'] | null {
  const outcomes = useMutationState({
    filters: { mutationKey: withdrawKey(clientOrderRef), status: 'success' },
    select: (mutation) => {
      const answer = withdrawResultSchema.safeParse(mutation.state.data);
      return answer.success ? answer.data.outcome : null;
    },
  });
  return outcomes.at(-1) ?? null;
}

/** Asks the merchant for the order now (opening its detail), so its actions come from a fresh status. */
export function useRefreshOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clientOrderRef: string) => api.orders.refresh({ clientOrderRef }),
    onSuccess: (detail: OrderDetail) => client.setQueryData(keys.order(detail.clientOrderRef), detail),
  });
}

export function useSubmitCode() {
  const settled = useOrderSettled();
  return useMutation({ mutationFn: (input: { clientOrderRef: string; code: string }) => api.orders.submitVerificationCode(input), onSuccess: settled });
}

export function useCancelOrder() {
  const settled = useOrderSettled();
  return useMutation({ mutationFn: (input: { clientOrderRef: string; reason?: string }) => api.orders.cancel(input), onSuccess: settled });
}

const REFUND_KEY = ['orders', 'requestRefund'] as const;

export function useRequestRefund() {
  const settled = useOrderSettled();
  return useMutation({
    mutationKey: REFUND_KEY,
    mutationFn: (input: { clientOrderRef: string; amountFen?: number; reason: string }) => api.orders.requestRefund(input),
    onSuccess: settled,
  });
}

/**
 * The refund request of this order on its way to core right now, wherever it was sent from: the screen
 * says "refund in progress" from the click, before core's answer (amount null: everything refundable).
 */
export function useRefundBeingSent(clientOrderRef: string): { amountFen: number | null } | null {
  const sending = useMutationState({
    filters: { mutationKey: REFUND_KEY, status: 'pending' },
    select: (mutation) => {
      const input = mutation.state.variables;
      if (typeof input !== 'object' || input === null || !('clientOrderRef' in input) || input.clientOrderRef !== clientOrderRef) return null;
      return { amountFen: 'amountFen' in input && typeof input.amountFen === 'number' ? input.amountFen : null };
    },
  });
  return sending.find((entry) => entry !== null) ?? null;
}
