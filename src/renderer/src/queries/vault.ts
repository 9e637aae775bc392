// Card credentials: masked list; reveal and copy are explicit calls that main records in the audit log.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../bridge';
import { keys } from './keys';

export function useCards(clientOrderRef: string | null) {
  return useQuery({
    queryKey: keys.cards(clientOrderRef ?? ''),
    queryFn: () => api.vault.cards({ clientOrderRef: clientOrderRef ?? '' }),
    enabled: clientOrderRef !== null,
  });
}

/** Plain text is never cached: it lives in the component that asked for it, until hidden. */
export function useRevealCard() {
  return useMutation({ mutationFn: (input: { clientOrderRef: string; seq: number }) => api.vault.reveal(input) });
}

export function useCopyCard() {
  return useMutation({
    mutationFn: (input: { clientOrderRef: string; seq: number; field: 'cardNo' | 'cardPassword' }) => api.vault.copy(input),
  });
}
