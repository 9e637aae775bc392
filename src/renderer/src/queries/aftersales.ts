// After-sales: the case list, one case with its chat, the unread counts (per order too), and the
// buyer's actions. Everything under ['aftersales'] is invalidated by the pushed 'aftersales.changed'.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { CaseDetail, CaseListQuery, OpenCaseInput, SendCaseMessageInput } from '../../../shared/ipc/views/aftersales';

export const aftersaleKeys = {
  all: ['aftersales'] as const,
  list: (query: CaseListQuery) => ['aftersales', 'list', query] as const,
  detail: (platformCaseRef: string) => ['aftersales', 'detail', platformCaseRef] as const,
  unread: ['aftersales', 'unread'] as const,
};

export function useCases(query: CaseListQuery) {
  return useQuery({ queryKey: aftersaleKeys.list(query), queryFn: () => api.aftersales.list(query) });
}

export function useCase(platformCaseRef: string | null) {
  return useQuery({
    queryKey: aftersaleKeys.detail(platformCaseRef ?? ''),
    queryFn: () => api.aftersales.get({ platformCaseRef: platformCaseRef ?? '' }),
    enabled: platformCaseRef !== null,
  });
}

export function useUnread() {
  return useQuery({ queryKey: aftersaleKeys.unread, queryFn: () => api.aftersales.unread() });
}

function useCaseSettled() {
  const client = useQueryClient();
  return (detail: CaseDetail): void => {
    client.setQueryData(aftersaleKeys.detail(detail.platformCaseRef), detail);
    void client.invalidateQueries({ queryKey: aftersaleKeys.all });
  };
}

export function useOpenCase() {
  const settled = useCaseSettled();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OpenCaseInput) => api.aftersales.open(input),
    onSuccess: (detail) => {
      settled(detail);
      // The order no longer offers a second case.
      void client.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}

export function useSendCaseMessage() {
  const settled = useCaseSettled();
  return useMutation({ mutationFn: (input: SendCaseMessageInput) => api.aftersales.send(input), onSuccess: settled });
}

export function useRefreshCase() {
  const settled = useCaseSettled();
  return useMutation({ mutationFn: (platformCaseRef: string) => api.aftersales.refresh({ platformCaseRef }), onSuccess: settled });
}

export function useMarkCaseRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (platformCaseRef: string) => api.aftersales.markRead({ platformCaseRef }),
    onSuccess: () => void client.invalidateQueries({ queryKey: aftersaleKeys.all }),
  });
}
