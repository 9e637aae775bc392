// One QueryClient for the app. The connection-wide state (key refused, suspended, offline, …) is not
// guessed here from failed calls: core pushes it (connection.state, state/connection-state-store.ts).
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
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
