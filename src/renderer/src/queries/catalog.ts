// Catalog data: categories, sync, products, price history, watch.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import { keys } from './keys';
import type { OpenedProduct } from '../../../shared/ipc/views/catalog';

export function useCategories(enabled: boolean) {
  return useQuery({ queryKey: keys.categories, queryFn: () => api.catalog.categories(), enabled, staleTime: 300_000 });
}

export function useSyncStatus(enabled: boolean) {
  return useQuery({ queryKey: keys.syncStatus, queryFn: () => api.catalog.syncStatus(), enabled });
}

export function useSyncNow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.catalog.sync(),
    onSuccess: (status) => {
      client.setQueryData(keys.syncStatus, status);
      void client.invalidateQueries({ queryKey: keys.catalog });
    },
  });
}

/** A product of the active profile, or of the merchant `profileId` names (an order form moved there, issue 17). */
export function useProduct(productRef: number | null, profileId?: string) {
  return useQuery({
    queryKey: profileId === undefined ? keys.product(productRef ?? 0) : [...keys.product(productRef ?? 0), profileId],
    queryFn: () => api.catalog.product({ productRef: productRef ?? 0, ...(profileId === undefined ? {} : { profileId }) }),
    enabled: productRef !== null,
  });
}

/**
 * The product for the drawer and the order form (catalog.openProduct): core loads its detail first when
 * only the list's data, an older revision or a reading older than DETAIL_FRESH_FOR_S is stored, so this
 * can take a request's time; useProduct answers the cache at once meanwhile. Asked at every mount (core
 * decides whether the merchant is asked). The answer also refreshes the cached product.
 */
export function useOpenProduct(productRef: number | null, profileId?: string) {
  const client = useQueryClient();
  const scope = profileId === undefined ? {} : { profileId };
  return useQuery({
    queryKey: profileId === undefined ? keys.openProduct(productRef ?? 0) : [...keys.openProduct(productRef ?? 0), profileId],
    queryFn: async () => {
      const opened = await api.catalog.openProduct({ productRef: productRef ?? 0, ...scope });
      const productKey = profileId === undefined ? keys.product(opened.product.productRef) : [...keys.product(opened.product.productRef), profileId];
      client.setQueryData(productKey, opened.product);
      return opened;
    },
    enabled: productRef !== null,
    staleTime: 0,
  });
}

export function usePriceHistory(productRef: number | null, variantRef: number | null) {
  return useQuery({
    queryKey: keys.priceHistory(productRef ?? 0, variantRef ?? 0),
    queryFn: () => api.catalog.priceHistory({ productRef: productRef ?? 0, variantRef: variantRef ?? 0 }),
    enabled: productRef !== null && variantRef !== null,
  });
}

export function useSetWatched() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { productRef: number; watched: boolean }) => api.catalog.setWatched(input),
    onSuccess: (product) => {
      client.setQueryData(keys.product(product.productRef), product);
      client.setQueryData(keys.openProduct(product.productRef), (opened: OpenedProduct | undefined) => (opened === undefined ? undefined : { ...opened, product }));
    },
  });
}
