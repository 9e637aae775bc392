// Catalog data: categories, sync, products, price history, watch.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import { keys } from './keys';

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

export function useProduct(productRef: number | null) {
  return useQuery({
    queryKey: keys.product(productRef ?? 0),
    queryFn: () => api.catalog.product({ productRef: productRef ?? 0 }),
    enabled: productRef !== null,
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
    onSuccess: (product) => client.setQueryData(keys.product(product.productRef), product),
  });
}
