// Orders: list, detail, purchase template, placing and confirming, and the merchant's actions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { OrderDetail, PlaceOrderInput } from '../../../shared/ipc/views';
import { keys } from './keys';

export interface OrderFilter {
  readonly intentStatus?: string;
  readonly state?: string;
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

export function useTemplate(productRef: number, variantRef: number) {
  // Always fetched afresh when the form opens: the template decides what is sent.
  return useQuery({ queryKey: keys.template(productRef, variantRef), queryFn: () => api.orders.template({ productRef, variantRef }), staleTime: 0 });
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
  return useMutation({ mutationFn: (input: PlaceOrderInput) => api.orders.place(input), onSuccess: settled });
}

export function useConfirmOrder() {
  const settled = useOrderSettled();
  return useMutation({
    mutationFn: (input: { clientOrderRef: string; units: number; unitPriceFen: number; purchaseEntries?: Record<string, string>[] }) => api.orders.confirm(input),
    onSuccess: settled,
  });
}

export function useWithdrawOrder() {
  const settled = useOrderSettled();
  return useMutation({ mutationFn: (clientOrderRef: string) => api.orders.withdraw({ clientOrderRef }), onSuccess: (result) => settled(result.order) });
}

export function useSubmitCode() {
  const settled = useOrderSettled();
  return useMutation({ mutationFn: (input: { clientOrderRef: string; code: string }) => api.orders.submitVerificationCode(input), onSuccess: settled });
}

export function useCancelOrder() {
  const settled = useOrderSettled();
  return useMutation({ mutationFn: (input: { clientOrderRef: string; reason?: string }) => api.orders.cancel(input), onSuccess: settled });
}

export function useRequestRefund() {
  const settled = useOrderSettled();
  return useMutation({
    mutationFn: (input: { clientOrderRef: string; amountFen?: number; reason: string }) => api.orders.requestRefund(input),
    onSuccess: settled,
  });
}
