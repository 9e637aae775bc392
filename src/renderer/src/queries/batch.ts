// Batch orders from a file: the preview (core reads the file), placing, the live status and its
// actions. The status lives under the orders prefix, so every pushed orders.changed refreshes it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { ChannelInput } from '../../../shared/ipc/contract';
import type { BatchStatusView } from '../../../shared/ipc/views/batch';
import { keys } from './keys';

export const batchStatusKey = (batchId: string) => [...keys.orders, 'batch', batchId] as const;

export function useBatchPreview() {
  return useMutation({ mutationFn: (input: ChannelInput<'batch.preview'>) => api.batch.preview(input) });
}

export function useBatchStatus(batchId: string | null) {
  return useQuery({ queryKey: batchStatusKey(batchId ?? ''), queryFn: () => api.batch.status({ batchId: batchId ?? '' }), enabled: batchId !== null });
}

function useStatusSettled() {
  const client = useQueryClient();
  return (status: BatchStatusView): void => {
    client.setQueryData(batchStatusKey(status.batchId), status);
    void client.invalidateQueries({ queryKey: keys.account });
  };
}

export function usePlaceBatch() {
  const settled = useStatusSettled();
  return useMutation({ mutationFn: (input: ChannelInput<'batch.place'>) => api.batch.place(input), onSuccess: settled });
}

export function useRetryBatch() {
  const settled = useStatusSettled();
  return useMutation({ mutationFn: (input: ChannelInput<'batch.retryFailed'>) => api.batch.retryFailed(input), onSuccess: (result) => settled(result.status) });
}

export function useConfirmBatchPrice() {
  const settled = useStatusSettled();
  return useMutation({ mutationFn: (input: ChannelInput<'batch.confirmPrice'>) => api.batch.confirmPrice(input), onSuccess: settled });
}

export function useExportBatch() {
  return useMutation({ mutationFn: (input: ChannelInput<'batch.exportResults'>) => api.batch.exportResults(input) });
}
