// Paging the audit log across merchant profiles (contract §15.2). Ids are per profile, so the cursor
// keeps, for each profile, the lowest id already shown; a profile none of whose entries were on the
// last page keeps the cursor it had (its next entries are still below it), and one never seen yet has
// none (its newest entries come first). The last page being short means every profile is exhausted.
import type { AuditEntry } from '../../../shared/ipc/views/audit';

export interface AuditCursor {
  /** Per profile: its entries with id below this. */
  readonly beforeIds: Readonly<Record<string, number>>;
  /** Rows without a merchant (a core without profiles): one id space. */
  readonly beforeId?: number;
}

export const FIRST_AUDIT_PAGE: AuditCursor = { beforeIds: {} };

export function nextAuditCursor(lastPage: readonly AuditEntry[], lastPageParam: AuditCursor, limit: number): AuditCursor | null {
  if (lastPage.length < limit) return null;
  const beforeIds: Record<string, number> = { ...lastPageParam.beforeIds };
  let beforeId = lastPageParam.beforeId;
  for (const row of lastPage) {
    if (row.merchant === undefined) beforeId = beforeId === undefined ? row.id : Math.min(beforeId, row.id);
    else {
      const seen = beforeIds[row.merchant.profileId];
      beforeIds[row.merchant.profileId] = seen === undefined ? row.id : Math.min(seen, row.id);
    }
  }
  return beforeId === undefined ? { beforeIds } : { beforeIds, beforeId };
}

/** The audit.list input of a page: the cursor's parts that are set. */
export function auditCursorInput(cursor: AuditCursor): { beforeIds?: Record<string, number>; beforeId?: number } {
  return {
    ...(Object.keys(cursor.beforeIds).length > 0 ? { beforeIds: { ...cursor.beforeIds } } : {}),
    ...(cursor.beforeId === undefined ? {} : { beforeId: cursor.beforeId }),
  };
}
