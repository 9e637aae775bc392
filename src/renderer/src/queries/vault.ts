// Card credentials: reveal and copy are explicit calls that main records in the audit log (the masked
// list and the export live in vault-export.ts).
import { useMutation } from '@tanstack/react-query';
import { api } from '../bridge';

/** Plain text is never cached: it lives in the component that asked for it, until hidden. */
export function useRevealCard() {
  return useMutation({ mutationFn: (input: { clientOrderRef: string; seq: number; acknowledgeRefunded?: boolean }) => api.vault.reveal(input) });
}

export function useCopyCard() {
  return useMutation({
    mutationFn: (input: { clientOrderRef: string; seq: number; field: 'cardNo' | 'cardPassword'; acknowledgeRefunded?: boolean }) => api.vault.copy(input),
  });
}
