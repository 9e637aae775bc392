// One QueryClient for the app. Failures that concern the whole connection (key invalid, suspended,
// IP denied, rate limited, offline) go to the banner's store from here, whichever screen met them.
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { explainError, GLOBAL_PROBLEMS } from '../lib/explain-error';
import { useProblemStore } from '../state/problem-store';

function onError(error: unknown): void {
  const explained = explainError(error);
  if (GLOBAL_PROBLEMS.has(explained.problem)) useProblemStore.getState().report(explained);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError,
      // The account is read from the merchant: an answer means the connection works again.
      onSuccess: (_data, query) => {
        if (query.queryKey[0] === 'account') useProblemStore.getState().clear();
      },
    }),
    // A connect test's failure is about the address being tried, not the connection in use: it is
    // shown on its form only (meta.connectTest), never as the banner's "offline" or "key invalid".
    mutationCache: new MutationCache({ onError: (error, _variables, _result, mutation) => (mutation.meta?.['connectTest'] === true ? undefined : onError(error)) }),
    defaultOptions: {
      queries: {
        // Main answers from its own database; the data changes when main says so (pushed events).
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retrying a refusal changes nothing; core already retries the network itself.
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
