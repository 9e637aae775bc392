// The spend report and its exports. Under ['orders', …] so orders.changed refreshes the dashboard;
// account.changed refreshes it too (the balance chart).
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../bridge';
import type { SpendExportInput, SpendQuery } from '../../../shared/ipc/views/books';

export const spendKeys = {
  all: ['orders', 'spend'] as const,
  report: (query: SpendQuery) => ['orders', 'spend', query] as const,
};

export function useSpendReport(query: SpendQuery | null) {
  return useQuery({
    queryKey: query === null ? [...spendKeys.all, 'none'] : spendKeys.report(query),
    queryFn: () => (query === null ? Promise.resolve(null) : api.books.spend(query)),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

export function useExportSpend() {
  return useMutation({ mutationFn: (input: SpendExportInput) => api.books.exportSpend(input) });
}
