// Comparing merchants (issue 17, contract §15.4): the search over every profile's catalog, the buyer's
// links and their fallback rules, and the offers the order dialog shows. Keyed under ['catalog'] so a
// catalog change (prices, stock) refreshes them with the rest of the catalog.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { FallbackRule, LinkView, VariantKey } from '../../../shared/ipc/views/compare';

export const compareKeys = {
  all: ['catalog', 'compare'] as const,
  search: (text: string, inStock: boolean) => ['catalog', 'compare', 'search', text, inStock] as const,
  links: ['catalog', 'links'] as const,
  linkFor: (key: VariantKey | null) => ['catalog', 'links', 'for', key?.profileId ?? '', key?.productRef ?? 0, key?.variantRef ?? 0] as const,
  offers: (key: VariantKey | null, units: number | null) => ['catalog', 'offers', key?.profileId ?? '', key?.productRef ?? 0, key?.variantRef ?? 0, units ?? 0] as const,
  product: (profileId: string, productRef: number) => ['catalog', 'product', productRef, profileId] as const,
};

export function useCompare(text: string, inStock: boolean) {
  const query = text.trim();
  return useQuery({
    queryKey: compareKeys.search(query, inStock),
    queryFn: () => api.catalog.compare({ text: query, limit: 20, ...(inStock ? { inStock: true } : {}) }),
    enabled: query !== '',
    placeholderData: keepPreviousData,
  });
}

/** One merchant's product (its variants, to pick the one a link joins). */
export function useMerchantProduct(profileId: string | null, productRef: number | null) {
  return useQuery({
    queryKey: compareKeys.product(profileId ?? '', productRef ?? 0),
    queryFn: () => api.catalog.product({ productRef: productRef ?? 0, profileId: profileId ?? undefined }),
    enabled: profileId !== null && productRef !== null,
  });
}

export function useLinks() {
  return useQuery({ queryKey: compareKeys.links, queryFn: () => api.links.list() });
}

export function useLinkFor(key: VariantKey | null) {
  return useQuery({ queryKey: compareKeys.linkFor(key), queryFn: () => api.links.forVariant({ key: key as VariantKey }), enabled: key !== null });
}

/** What the order dialog offers for these units (null units: the box says nothing valid yet). */
export function useOffers(key: VariantKey | null, units: number | null) {
  return useQuery({
    queryKey: compareKeys.offers(key, units),
    queryFn: () => api.orders.offers({ key: key as VariantKey, units: units ?? 1 }),
    enabled: key !== null && units !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

function useLinksChanged() {
  const client = useQueryClient();
  return (): void => {
    void client.invalidateQueries({ queryKey: compareKeys.all });
    void client.invalidateQueries({ queryKey: compareKeys.links });
    void client.invalidateQueries({ queryKey: ['catalog', 'offers'] });
  };
}

export function useLink() {
  const changed = useLinksChanged();
  return useMutation({ mutationFn: (input: { a: VariantKey; b: VariantKey }) => api.links.link(input), onSuccess: changed });
}

export function useUnlink() {
  const changed = useLinksChanged();
  return useMutation({ mutationFn: (key: VariantKey) => api.links.unlink({ key }), onSuccess: changed });
}

export function useSetRule() {
  const changed = useLinksChanged();
  return useMutation({ mutationFn: (input: { linkId: number; rule: FallbackRule | null }): Promise<LinkView> => api.links.setRule(input), onSuccess: changed });
}
