// Card credentials: reveal and copy are explicit calls that main records in the audit log (the masked
// list and the export live in vault-export.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import { keys } from './keys';

/** Whether the vault's data key is missing from the secret store (then nothing can be opened or stored). */
export function useVaultKeyStatus() {
  return useQuery({ queryKey: keys.vaultKey, queryFn: () => api.vault.keyStatus() });
}

/** The buyer's explicit choice after the key went missing: a new key; lost cards come back when re-delivered. */
export function useStartNewVaultKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.vault.startNewKey(),
    onSuccess: (status) => {
      client.setQueryData(keys.vaultKey, status);
      void client.invalidateQueries({ queryKey: keys.vault });
    },
  });
}

/** Plain text is never cached: it lives in the component that asked for it, until hidden. */
export function useRevealCard() {
  return useMutation({ mutationFn: (input: { clientOrderRef: string; seq: number; acknowledgeRefunded?: boolean }) => api.vault.reveal(input) });
}

export function useCopyCard() {
  return useMutation({
    mutationFn: (input: { clientOrderRef: string; seq: number; field: 'cardNo' | 'cardPassword'; acknowledgeRefunded?: boolean }) => api.vault.copy(input),
  });
}
