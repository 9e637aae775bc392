// The vault list, the export preview and the export itself, marks, and the audit log. All keys sit
// under ['vault'], so vault.changed and orders.changed (new cards) refresh every one of them; the
// audit log is read afresh whenever its screen opens (reveals and copies add rows too).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { AUDIT_ACTIONS } from '../../../shared/ipc/views/audit';
import type { CardSelection, ExportInput, MarkCardsInput, VaultListQuery } from '../../../shared/ipc/views/vault';
import { auditCursorInput, FIRST_AUDIT_PAGE, nextAuditCursor } from '../lib/audit-cursor';
import { keys } from './keys';

export const vaultKeys = {
  list: (query: VaultListQuery) => [...keys.vault, 'list', query] as const,
  preview: (selection: CardSelection) => [...keys.vault, 'preview', selection] as const,
  audit: (action: AuditAction | null, profile: string | null) => [...keys.vault, 'audit', action, profile] as const,
};

export const AUDIT_PAGE = 50;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function useVaultList(query: VaultListQuery) {
  return useQuery({ queryKey: vaultKeys.list(query), queryFn: () => api.vault.list(query), placeholderData: (previous) => previous });
}

/** Counted afresh whenever the dialog's choice changes (the count is the promise made before exporting). */
export function useExportPreview(selection: CardSelection | null) {
  return useQuery({
    queryKey: selection === null ? [...keys.vault, 'preview', 'none'] : vaultKeys.preview(selection),
    queryFn: () => (selection === null ? Promise.resolve(null) : api.vault.exportPreview({ selection })),
    enabled: selection !== null,
    staleTime: 0,
  });
}

/**
 * The password goes to main in this one call. gcTime 0: the finished mutation, whose variables hold
 * the password, leaves the cache as soon as the dialog stops watching it (it is never persisted).
 */
export function useExportCards() {
  const client = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: (input: ExportInput) => api.vault.export(input),
    onSettled: () => void client.invalidateQueries({ queryKey: keys.vault }),
  });
}

export function useMarkCards() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MarkCardsInput) => api.vault.mark(input),
    onSettled: () => void client.invalidateQueries({ queryKey: keys.vault }),
  });
}

/** Newest first across every merchant (or `profile`'s only); later pages start below each one's last id seen. */
export function useAuditLog(action: AuditAction | null, profile: string | null = null) {
  return useInfiniteQuery({
    queryKey: vaultKeys.audit(action, profile),
    queryFn: ({ pageParam }) =>
      api.audit.list({
        limit: AUDIT_PAGE,
        ...(action === null ? {} : { action }),
        ...(profile === null ? {} : { profile }),
        ...auditCursorInput(pageParam),
      }),
    initialPageParam: FIRST_AUDIT_PAGE,
    getNextPageParam: (last, _pages, lastPageParam) => nextAuditCursor(last, lastPageParam, AUDIT_PAGE),
    staleTime: 0,
    refetchOnMount: 'always',
  });
}
