// The API key and the ngrok authtoken leave the renderer's mutation cache as soon as they were sent
// successfully (src/renderer/src/queries/secret-mutation.ts, used by useConnect, useReplaceKey and
// useSaveNgrokAuthtoken), driven through TanStack's own MutationObserver, the object useMutation
// wraps, with a screen "mounted" as a subscriber. The control case shows what it protects against:
// TanStack's default keeps the key for five minutes after the screen is gone.
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mutateThenForget, SECRET_MUTATION_GC_TIME } from '../../src/renderer/src/queries/secret-mutation';

const KEY = 'AK_0123456789abcdef0123456789abcdef';

interface ConnectInput {
  baseUrl: string;
  userId: string;
  apiKey: string;
}

/** Every variable the client's mutation cache still holds, as text. */
const cached = (client: QueryClient): string => JSON.stringify(client.getMutationCache().getAll().map((mutation) => mutation.state.variables));

/** Lets the mutation's promise chain settle (microtasks only; the gc timer is fake). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('secrets in the mutation cache', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function connectObserver(client: QueryClient, outcome: 'ok' | 'refused', gcTime?: number) {
    const observer = new MutationObserver<{ nickname: string }, Error, ConnectInput>(client, {
      ...(gcTime === undefined ? {} : { gcTime }),
      mutationFn: (input) => (outcome === 'ok' && input.apiKey === KEY ? Promise.resolve({ nickname: 'buyer' }) : Promise.reject(new Error('401001 key invalid'))),
    });
    // The screen that shows the form watches the mutation, as useMutation does while mounted.
    const unsubscribe = observer.subscribe(() => undefined);
    return { observer, unsubscribe };
  }

  it('the key is gone from the cache at once after connecting, while the screen is still open', async () => {
    const client = new QueryClient();
    const { observer, unsubscribe } = connectObserver(client, 'ok', SECRET_MUTATION_GC_TIME);
    const seen: string[] = [];
    mutateThenForget(observer, { baseUrl: 'https://m.example', userId: '170001', apiKey: KEY }, { onSuccess: (account) => seen.push(account.nickname) });
    expect(cached(client)).toContain(KEY); // while it is being sent
    await settle();
    expect(seen).toEqual(['buyer']);
    expect(observer.getCurrentResult().variables).toBeUndefined();
    vi.runAllTimers();
    expect(client.getMutationCache().getAll()).toEqual([]);
    expect(cached(client)).not.toContain(KEY);
    unsubscribe();
  });

  it('after a refusal the key stays only while its error is on screen, and leaves with the screen', async () => {
    const client = new QueryClient();
    const { observer, unsubscribe } = connectObserver(client, 'refused', SECRET_MUTATION_GC_TIME);
    mutateThenForget(observer, { baseUrl: 'https://m.example', userId: '170001', apiKey: KEY });
    await settle();
    expect(observer.getCurrentResult().error?.message).toBe('401001 key invalid');
    unsubscribe();
    vi.runAllTimers();
    expect(cached(client)).not.toContain(KEY);
  });

  it('control: with TanStack defaults the key outlives the screen in the cache', async () => {
    const client = new QueryClient();
    const { observer, unsubscribe } = connectObserver(client, 'ok');
    await observer.mutate({ baseUrl: 'https://m.example', userId: '170001', apiKey: KEY });
    unsubscribe();
    vi.advanceTimersByTime(60_000);
    expect(cached(client)).toContain(KEY);
  });
});
