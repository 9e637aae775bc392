// The page's side of the web host's session (src/renderer/src/bridge/launch-secret.ts and
// deferred-transport.ts, which web-bridge.ts puts together): the launch secret is read from the fragment only, and nothing reaches the
// host before the session is settled: calls wait for it, early subscriptions are attached once it
// is there (and one dropped meanwhile never is).
import { describe, expect, it } from 'vitest';
import type { BridgeTransport } from '../../src/shared/ipc/bridge-api';
import { deferredTransport } from '../../src/renderer/src/bridge/deferred-transport';
import { launchSecretOf } from '../../src/renderer/src/bridge/launch-secret';

describe('web session on the page', () => {
  it('reads the launch secret from a #k= fragment only', () => {
    expect(launchSecretOf('#k=abc_DEF-123')).toBe('abc_DEF-123');
    expect(launchSecretOf('#x=1&k=s3cret')).toBe('s3cret');
    expect(launchSecretOf('#k=')).toBeNull();
    expect(launchSecretOf('')).toBeNull();
    expect(launchSecretOf('#token=abc')).toBeNull();
  });

  it('holds calls and subscriptions until the transport exists, then hands them over', async () => {
    let arrive: (transport: BridgeTransport) => void = () => undefined;
    const ready = new Promise<BridgeTransport>((resolve) => (arrive = resolve));
    const deferred = deferredTransport(ready);
    const calls: string[] = [];
    const listeners = new Map<string, ((payload: unknown) => void)[]>();
    const real: BridgeTransport = {
      invoke: (channel) => {
        calls.push(channel);
        return Promise.resolve({ ok: true, value: channel });
      },
      subscribe: (event, listener) => {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return () => listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener));
      },
    };
    const seen: unknown[] = [];
    deferred.subscribe('orders.changed', (payload) => seen.push(payload));
    const dropped = deferred.subscribe('vault.changed', () => seen.push('never'));
    dropped();
    const pending = deferred.invoke('connection.status', undefined);
    await Promise.resolve();
    expect(calls).toEqual([]);

    arrive(real);
    await expect(pending).resolves.toEqual({ ok: true, value: 'connection.status' });
    expect(calls).toEqual(['connection.status']);
    for (const listener of listeners.get('orders.changed') ?? []) listener({ clientOrderRefs: ['r1'] });
    expect(listeners.get('vault.changed') ?? []).toEqual([]);
    expect(seen).toEqual([{ clientOrderRefs: ['r1'] }]);
  });
});
