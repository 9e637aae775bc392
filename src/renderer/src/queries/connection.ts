// Connection and account: status, first-run connect or demo, key replace/clear (write-only).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../bridge';
import type { AccountView } from '../../../shared/ipc/views/connection';
import { useConnectionStateStore } from '../state/connection-state-store';
import { keys } from './keys';
import { mutateThenForget, SECRET_MUTATION_GC_TIME, type SecretCallbacks } from './secret-mutation';

export function useConnectionStatus() {
  return useQuery({ queryKey: keys.connection, queryFn: () => api.connection.status() });
}

/** The active profile's account, or (issue 17) the one of the merchant `profileId` names: an order dialog moved there shows that merchant's balance. */
export function useAccount(enabled: boolean, profileId?: string) {
  const blocked = useConnectionStateStore((state) => state.view !== null && state.view.state !== 'online' && state.view.state !== 'notConnected');
  return useQuery({
    // Under keys.account, so whatever refreshes the balance after an order refreshes another merchant's too.
    queryKey: profileId === undefined ? keys.account : [...keys.account, profileId],
    queryFn: () => api.account.get(profileId === undefined ? undefined : { profileId }),
    enabled,
    // While the connection is not online, asking GET /account now and then also tells core's state
    // machine when it is over (the one request sent while access is refused); otherwise
    // account.changed keeps the balance current without spending quota. The state shown is the
    // active profile's: another merchant's balance is asked once per dialog.
    refetchInterval: blocked && profileId === undefined ? 30_000 : false,
  });
}

function useAfterConnect() {
  const client = useQueryClient();
  return (account: AccountView): void => {
    client.setQueryData(keys.account, account);
    void client.invalidateQueries({ queryKey: keys.connection });
    void client.invalidateQueries({ queryKey: keys.catalog });
    void client.invalidateQueries({ queryKey: keys.orders });
  };
}

export interface ConnectInput {
  baseUrl: string;
  userId: string;
  apiKey: string;
  /** A CA trusted for this merchant only (the form's advanced section), or null. */
  caCertPem: string | null;
}

/** A connect test: its failure belongs to its form, not to the banner (query-client.ts). */
const CONNECT_TEST = { connectTest: true } as const;

/** The API key is in the variables: the mutation leaves the cache once connected (secret-mutation.ts). */
export function useConnect() {
  const after = useAfterConnect();
  const mutation = useMutation({
    gcTime: SECRET_MUTATION_GC_TIME,
    mutationFn: (input: ConnectInput) => api.connection.connect(input),
    onSuccess: after,
    meta: CONNECT_TEST,
  });
  return { ...mutation, mutate: (input: ConnectInput, callbacks?: SecretCallbacks<AccountView>) => mutateThenForget(mutation, input, callbacks) };
}

export function useStartDemo() {
  const after = useAfterConnect();
  return useMutation({ mutationFn: () => api.connection.startDemo(), onSuccess: after, meta: CONNECT_TEST });
}

/** Another CA for the connected merchant (null: none): kept only when the merchant answers with it. */
export function useSetCaCert() {
  const after = useAfterConnect();
  return useMutation({ mutationFn: (caCertPem: string | null) => api.connection.setCaCert({ caCertPem }), onSuccess: after, meta: CONNECT_TEST });
}

/** The new API key is in the variables: the mutation leaves the cache once stored (secret-mutation.ts). */
export function useReplaceKey() {
  const after = useAfterConnect();
  const mutation = useMutation({ gcTime: SECRET_MUTATION_GC_TIME, mutationFn: (apiKey: string) => api.connection.replaceKey({ apiKey }), onSuccess: after });
  return { ...mutation, mutate: (apiKey: string, callbacks?: SecretCallbacks<AccountView>) => mutateThenForget(mutation, apiKey, callbacks) };
}

export function useClearKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.connection.clearKey(),
    onSuccess: (status) => {
      client.setQueryData(keys.connection, status);
      client.removeQueries({ queryKey: keys.account });
    },
  });
}

/** Moves memory-only secrets into the passphrase file (desktop app); the passphrase leaves the cache at once. */
export function useUsePassphraseFile() {
  const client = useQueryClient();
  const mutation = useMutation({
    gcTime: SECRET_MUTATION_GC_TIME,
    mutationFn: (passphrase: string) => api.secrets.usePassphraseFile({ passphrase }),
    onSuccess: (status) => client.setQueryData(keys.connection, status),
  });
  type Status = NonNullable<typeof mutation.data>;
  return { ...mutation, mutate: (passphrase: string, callbacks?: SecretCallbacks<Status>) => mutateThenForget(mutation, passphrase, callbacks) };
}
