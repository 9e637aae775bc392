// Mutations whose variables carry a secret the buyer typed (the API key, the ngrok authtoken, the
// export password). TanStack Query keeps a mutation, variables included, in the client's mutation
// cache for gcTime (5 minutes by default) after nobody watches it: long enough for anything that
// reads the cache (devtools, a crash report, a curious extension) to find the key. So:
// - gcTime 0: the moment no screen watches the mutation, it leaves the cache;
// - after success the screen stops watching it (reset), so the secret leaves at once. After a
//   failure it stays only while its error is on screen, and goes with the next attempt or the screen.
export const SECRET_MUTATION_GC_TIME = 0;

export interface SecretCallbacks<TData> {
  onSuccess?: (data: TData) => void;
}

/** What both useMutation's result and query-core's MutationObserver offer. */
export interface ResettableMutation<TData, TVariables> {
  mutate(variables: TVariables, options?: { onSuccess?: (data: TData) => void }): unknown;
  reset(): void;
}

/** Sends once; on success runs the caller's callback, then lets go of the mutation and its variables. */
export function mutateThenForget<TData, TVariables>(mutation: ResettableMutation<TData, TVariables>, variables: TVariables, callbacks: SecretCallbacks<TData> = {}): void {
  const sent = mutation.mutate(variables, {
    onSuccess: (data) => {
      callbacks.onSuccess?.(data);
      mutation.reset();
    },
  });
  // The observer's own mutate returns a promise that rejects on failure; the error is shown from state.
  if (sent instanceof Promise) sent.catch(() => undefined);
}
