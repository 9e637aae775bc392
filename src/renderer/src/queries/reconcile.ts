// Reconciliation over the bridge: the latest report (under ['books'], refreshed by every action's
// answer), the run, and the actions of each difference. The order actions also touch ['orders'] and
// ['vault'] (a refreshed order, its cards).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { ReconcileExportInput, ReconcileInput, ReconcileReport } from '../../../shared/ipc/views/reconcile';
import { keys } from './keys';

export const reconcileKey = ['books', 'reconcile'] as const;

export function useLatestReconcile() {
  return useQuery({ queryKey: reconcileKey, queryFn: () => api.books.reconcileLatest(), staleTime: 0 });
}

function useReportMutation<I>(call: (input: I) => Promise<ReconcileReport | null>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (report) => {
      if (report !== null) client.setQueryData(reconcileKey, report);
    },
    onSettled: () => {
      // A run that ends today asked the balance: the header shows it too.
      void client.invalidateQueries({ queryKey: keys.account });
      void client.invalidateQueries({ queryKey: keys.orders });
      void client.invalidateQueries({ queryKey: keys.vault });
    },
  });
}

export const useRunReconcile = () => useReportMutation((input: ReconcileInput) => api.books.reconcile(input));
export const useRefreshForReconcile = () => useReportMutation((clientOrderRef: string) => api.books.refreshOrder({ clientOrderRef }));
export const useRecordForeign = () => useReportMutation((clientOrderRef: string) => api.books.recordForeign({ clientOrderRef }));
export const useRecompare = () => useReportMutation(() => api.books.recompare());

export function useExportReconcile() {
  return useMutation({ mutationFn: (input: ReconcileExportInput) => api.books.exportReconcile(input) });
}
