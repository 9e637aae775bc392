// The order form's reading of its product (issue 24 point 6): opening the form to buy asks core to read
// a stored detail older than DETAIL_FRESH_FOR_S again (catalog.openProduct, contract §11.2), so the price
// and stock decided on are the merchant's now; the answer refreshes the product the form shows, and
// meanwhile ProductDetailStatus says the reading's age. Mounted once per dialog, shown in the edit step.
import { useCallback, useEffect } from 'react';
import { useOpenProduct, useProduct } from '../queries/catalog';
import { ProductDetailStatus } from './ProductDetailStatus';

export function OrderProductReading({ productRef, profileId, shown }: { productRef: number; profileId: string | undefined; shown: boolean }) {
  const product = useProduct(productRef, profileId);
  const opened = useOpenProduct(productRef, profileId);
  const refetchOpened = opened.refetch;
  const retryOpen = useCallback(() => void refetchOpened(), [refetchOpened]);
  if (!shown || product.data === undefined) return null;
  return (
    <div data-testid="order-product-reading" style={{ marginBottom: 12 }}>
      <ProductDetailStatus
        product={product.data}
        detailLoad={opened.data?.detailLoad ?? null}
        requestId={opened.data?.requestId ?? null}
        retrying={opened.isFetching && opened.data?.detailLoad === 'failed'}
        loading={opened.isFetching}
        onRetry={retryOpen}
      />
    </div>
  );
}

/** Calls `refetch` when the component mounts and whenever `on` changes (a dialog's step). */
export function useRefetchOn(refetch: () => Promise<unknown>, on: unknown): void {
  useEffect(() => {
    void refetch();
  }, [refetch, on]);
}
