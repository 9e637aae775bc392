// The lists that span every merchant profile (contract §15.2): orders, the vault, after-sales cases
// and the audit log. Each profile's own service answers its part exactly as it would alone (the same
// parse, the same views); here the parts are tagged with their merchant and merged in the order each
// list already has, so a list over two merchants reads like one list. A `profile` filter asks one.
import type { AuditEntry } from '../../shared/ipc/views/audit';
import type { CaseRow } from '../../shared/ipc/views/aftersales';
import type { InFlightOrders, OrderRow } from '../../shared/ipc/views/orders';
import type { MerchantTag } from '../../shared/ipc/views/profiles';
import type { VaultCardRow, VaultList } from '../../shared/ipc/views/vault';
import type { ChannelName } from '../../shared/ipc/contract';
import type { HandlerInput, HandlersFor } from './handler-types';

/** One profile's part of a list: its tag, and its own service's answer for an input. */
export interface ListSource {
  readonly tag: MerchantTag;
  ask<T>(channel: ChannelName, input: unknown): Promise<T>;
}

type Tagged<T> = T & { merchant: MerchantTag };

const withTag = <T extends object>(tag: MerchantTag, rows: readonly T[]): Tagged<T>[] => rows.map((row) => ({ ...row, merchant: tag }));

/** The profiles a list reads: every one, or the one its filter names (none when that one is gone). */
function sourcesFor(sources: readonly ListSource[], profile: string | undefined): readonly ListSource[] {
  return profile === undefined ? sources : sources.filter((source) => source.tag.profileId === profile);
}

/** Merges lists each already sorted by `before` (a before b = a comes first), keeping that order. */
export function mergeSorted<T>(parts: readonly (readonly T[])[], before: (a: T, b: T) => number): T[] {
  return parts.flat().sort(before);
}

const newestFirst = (a: number, b: number): number => b - a;

const VAULT_PAGE = 500;

async function allVaultRows(source: ListSource, query: HandlerInput<'vault.list'>, wanted: number): Promise<{ total: number; rows: Tagged<VaultCardRow>[] }> {
  const rows: Tagged<VaultCardRow>[] = [];
  let total = 0;
  // Every profile's first offset+limit rows are enough to know the merged page.
  for (let offset = 0; offset < wanted; offset += VAULT_PAGE) {
    const page = await source.ask<VaultList>('vault.list', { ...query, offset, limit: Math.min(VAULT_PAGE, wanted - offset) });
    total = page.total;
    rows.push(...withTag(source.tag, page.rows));
    if (page.rows.length < Math.min(VAULT_PAGE, wanted - offset)) break;
  }
  return { total, rows };
}

export function crossProfileListHandlers(sources: () => readonly ListSource[]): HandlersFor<'orders.list' | 'orders.inFlight' | 'vault.list' | 'aftersales.list' | 'audit.list'> {
  return {
    // Quitting asks about every merchant's orders, not only the active one's (contract §17.2).
    'orders.inFlight': async () => {
      const parts = await Promise.all(sources().map((source) => source.ask<InFlightOrders>('orders.inFlight', undefined)));
      return parts.reduce((sum, part) => ({ notSent: sum.notSent + part.notSent, awaitingAnswer: sum.awaitingAnswer + part.awaitingAnswer }), { notSent: 0, awaitingAnswer: 0 });
    },
    'orders.list': async ({ profile, ...query }) => {
      const parts = await Promise.all(sourcesFor(sources(), profile).map(async (source) => withTag(source.tag, await source.ask<OrderRow[]>('orders.list', query))));
      const merged = mergeSorted(parts, (a, b) => newestFirst(a.createdAt, b.createdAt));
      return query.limit === undefined ? merged : merged.slice(0, query.limit);
    },
    'vault.list': async ({ profile, ...query }) => {
      const wanted = query.offset + query.limit;
      const parts = await Promise.all(sourcesFor(sources(), profile).map((source) => allVaultRows(source, query, wanted)));
      // The per-profile order: received newest first, then order ref, then card number.
      const rows = mergeSorted(
        parts.map((part) => part.rows),
        (a, b) => newestFirst(a.receivedAt, b.receivedAt) || (a.clientOrderRef < b.clientOrderRef ? 1 : a.clientOrderRef > b.clientOrderRef ? -1 : a.seq - b.seq),
      );
      return { total: parts.reduce((sum, part) => sum + part.total, 0), rows: rows.slice(query.offset, wanted) };
    },
    'aftersales.list': async ({ profile, ...query }) => {
      const parts = await Promise.all(sourcesFor(sources(), profile).map(async (source) => withTag(source.tag, await source.ask<CaseRow[]>('aftersales.list', query))));
      const lastMoved = (row: CaseRow): number => Math.max(row.updatedAt, row.lastMessageAt ?? 0);
      return mergeSorted(parts, (a, b) => newestFirst(lastMoved(a), lastMoved(b)) || newestFirst(a.createdAt, b.createdAt));
    },
    'audit.list': async ({ profile, beforeIds, beforeId, ...query }) => {
      const chosen = sourcesFor(sources(), profile);
      const parts = await Promise.all(
        chosen.map(async (source) => {
          // Ids are per profile: the cursor keeps one per profile (beforeId alone pages a one-profile list).
          const before = beforeIds?.[source.tag.profileId] ?? (chosen.length === 1 ? beforeId : undefined);
          return withTag(source.tag, await source.ask<AuditEntry[]>('audit.list', { ...query, ...(before === undefined ? {} : { beforeId: before }) }));
        }),
      );
      return mergeSorted(parts, (a, b) => newestFirst(a.at, b.at) || newestFirst(a.id, b.id)).slice(0, query.limit);
    },
  };
}
