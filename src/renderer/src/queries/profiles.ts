// Merchant profiles (issue 17, contract §15): the list with each one's own connection state, and
// adding, renaming, switching and removing. Switching makes every cached answer another merchant's
// data, so the whole cache is invalidated; profiles.changed keeps the list current
// (use-bridge-events.ts).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { ProfileList } from '../../../shared/ipc/views/profiles';
import { useUiStore } from '../state/ui-store';
import { merchantOfOrder } from '../lib/order-merchant';

export const profileKeys = {
  list: ['profiles'] as const,
  work: (profileId: string) => ['profiles', 'work', profileId] as const,
};

export function useProfiles() {
  return useQuery({ queryKey: profileKeys.list, queryFn: () => api.profiles.list() });
}

/** What a profile still has open and its cards: read afresh each time the remove dialog opens. */
export function useProfileWork(profileId: string | null) {
  return useQuery({
    queryKey: profileKeys.work(profileId ?? ''),
    queryFn: () => api.profiles.work({ profileId: profileId ?? '' }),
    enabled: profileId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/**
 * Another merchant is on screen: every query (catalog, orders, account, settings…) answered for the
 * previous one. The list itself is set first so the header names the new merchant at once.
 */
export function afterActiveChanged(client: QueryClient, list: ProfileList): void {
  client.setQueryData(profileKeys.list, list);
  // A drawer or form open over the previous merchant's product or order, and a category filter of
  // its catalog, mean nothing at the new one.
  const ui = useUiStore.getState();
  ui.setPage(ui.page);
  ui.resetFilters();
  void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== profileKeys.list[0] });
}

/** profiles.changed: the list follows; another window (or the CLI) switching is a switch here too. */
export function onProfilesChanged(client: QueryClient, list: ProfileList): void {
  const before = client.getQueryData<ProfileList>(profileKeys.list);
  if (before !== undefined && before.activeId !== list.activeId) afterActiveChanged(client, list);
  else client.setQueryData(profileKeys.list, list);
}

export function useSwitchProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (profileId: string) => api.profiles.switch({ profileId }),
    onSuccess: (list) => afterActiveChanged(client, list),
  });
}

/** The new profile becomes the active one (not connected: the connect screen follows). */
export function useAddProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.profiles.add({ name }),
    onSuccess: (list) => afterActiveChanged(client, list),
  });
}

export function useRenameProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { profileId: string; name: string }) => api.profiles.rename(input),
    onSuccess: (list) => {
      client.setQueryData(profileKeys.list, list);
      // Rows of the cross-profile lists carry the merchant's name.
      void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== profileKeys.list[0] });
    },
  });
}

export function useRemoveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { profileId: string; confirmName: string; discardUnexportedCards: boolean }) => api.profiles.remove(input),
    onSuccess: (list) => afterActiveChanged(client, list),
  });
}

/**
 * Runs `open` for an order of another merchant once that merchant is the active one: the order form
 * (a queued order's review) reads the product and its template from the active merchant's catalog.
 * The switch is the buyer's click on "Review", said by the header's switcher changing name.
 */
export function useOnOrdersMerchant() {
  const client = useQueryClient();
  const switcher = useSwitchProfile();
  return (clientOrderRef: string, open: () => void): void => {
    const owner = merchantOfOrder(client, clientOrderRef);
    const activeId = client.getQueryData<ProfileList>(profileKeys.list)?.activeId ?? null;
    if (owner === null || owner === activeId) open();
    else void switcher.mutateAsync(owner).then(open, () => undefined);
  };
}
