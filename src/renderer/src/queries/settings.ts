// App settings (language, theme, webhook tunnel) and the health of the update channel.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { Settings } from '../../../shared/ipc/views/settings';
import { keys } from './keys';
import { mutateThenForget, SECRET_MUTATION_GC_TIME, type SecretCallbacks } from './secret-mutation';

export function useSettings() {
  return useQuery({ queryKey: keys.settings, queryFn: () => api.settings.get(), staleTime: Infinity });
}

export function useSetSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<Settings>) => api.settings.set(patch),
    onSuccess: (settings) => {
      client.setQueryData(keys.settings, settings);
      void client.invalidateQueries({ queryKey: keys.eventsHealth });
    },
  });
}

/** Which desktop settings this host applies (none in the web host); it never changes while the app runs. */
export function useDesktopSupport() {
  return useQuery({ queryKey: [...keys.settings, 'desktop'], queryFn: () => api.settings.desktop(), staleTime: Infinity });
}

export function useEventsHealth(enabled: boolean) {
  return useQuery({ queryKey: keys.eventsHealth, queryFn: () => api.events.health(), enabled, refetchInterval: 15_000 });
}

/** Whether an ngrok authtoken is stored (the token itself never comes back). */
export function useNgrokAuthtoken() {
  return useQuery({ queryKey: keys.ngrokAuthtoken, queryFn: () => api.settings.ngrokAuthtoken() });
}

/** The authtoken is in the variables: the mutation leaves the cache once saved (secret-mutation.ts). */
export function useSaveNgrokAuthtoken() {
  const client = useQueryClient();
  const mutation = useMutation({
    gcTime: SECRET_MUTATION_GC_TIME,
    mutationFn: (authtoken: string) => api.settings.saveNgrokAuthtoken({ authtoken }),
    onSuccess: (status) => {
      client.setQueryData(keys.ngrokAuthtoken, status);
      void client.invalidateQueries({ queryKey: keys.eventsHealth });
    },
  });
  type Saved = NonNullable<typeof mutation.data>;
  return { ...mutation, mutate: (authtoken: string, callbacks?: SecretCallbacks<Saved>) => mutateThenForget(mutation, authtoken, callbacks) };
}
