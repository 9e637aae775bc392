// The generated bridge: one domain-shaped member per channel and event of the contract, outputs and
// event payloads checked, refusals raised as IpcCallError.
import { describe, expect, it } from 'vitest';
import { buildBridgeApi, type BridgeTransport } from '../../../src/shared/ipc/bridge-api';
import { CHANNELS, EVENTS, type ChannelName, type EventName } from '../../../src/shared/ipc/contract';
import { IpcCallError, type IpcResult } from '../../../src/shared/ipc/ipc-result';
import type { AccountView } from '../../../src/shared/ipc/views/connection';
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';

const account: AccountView = { accountRef: 1, userId: '170001', nickname: 'n', accessState: 'active', balanceFen: 100, currency: 'CNY', readAt: 1_700_000_000 };

function fakeTransport(answer: (channel: ChannelName, input: unknown) => IpcResult<unknown>) {
  const calls: [ChannelName, unknown][] = [];
  const listeners = new Map<EventName, ((payload: unknown) => void)[]>();
  const transport: BridgeTransport = {
    invoke: (channel, input) => {
      calls.push([channel, input]);
      return Promise.resolve(answer(channel, input));
    },
    subscribe: (event, listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return () => listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener));
    },
  };
  const emit = (event: EventName, payload: unknown): void => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { transport, calls, emit };
}

describe('bridge api', () => {
  it('has one member per channel and one on… member per event, nothing else', () => {
    const api = buildBridgeApi(fakeTransport(() => ({ ok: true, value: null })).transport) as unknown as Record<string, Record<string, unknown>>;
    const members = Object.entries(api).flatMap(([ns, value]) => Object.keys(value).map((m) => `${ns}.${m}`));
    const expected = [
      ...Object.keys(CHANNELS),
      ...Object.keys(EVENTS).map((name) => {
        const [ns = '', member = ''] = name.split('.');
        return `${ns}.on${member.charAt(0).toUpperCase()}${member.slice(1)}`;
      }),
    ];
    expect(members.sort()).toEqual(expected.sort());
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('sends the channel and input, and returns the checked output', async () => {
    const fake = fakeTransport(() => ({ ok: true, value: account }));
    const api = buildBridgeApi(fake.transport);
    const value: AccountView = await api.account.get();
    expect(value).toEqual(account);
    expect(fake.calls).toEqual([['account.get', undefined]]);
  });

  it('raises a refusal as IpcCallError with its code, and refuses an answer that breaks the contract', async () => {
    const refused = buildBridgeApi(fakeTransport(() => ({ ok: false, error: { code: 'NOT_CONNECTED', message: 'connect first' } })).transport);
    const error = await refused.account.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IpcCallError);
    expect((error as IpcCallError).error.code).toBe('NOT_CONNECTED');
    const broken = buildBridgeApi(fakeTransport(() => ({ ok: true, value: { balanceFen: '100' } })).transport);
    const order: Promise<OrderDetail> = broken.orders.get({ clientOrderRef: 'o_1' });
    await expect(order).rejects.toThrow(/unexpected answer on orders.get/);
  });

  it('delivers checked event payloads without the transport event, and unsubscribes', () => {
    const fake = fakeTransport(() => ({ ok: true, value: null }));
    const api = buildBridgeApi(fake.transport);
    const seen: string[][] = [];
    const off = api.orders.onChanged((payload) => seen.push(payload.clientOrderRefs));
    fake.emit('orders.changed', { clientOrderRefs: ['o_1'] });
    fake.emit('orders.changed', { clientOrderRefs: 'not a list' });
    off();
    fake.emit('orders.changed', { clientOrderRefs: ['o_2'] });
    expect(seen).toEqual([['o_1']]);
  });
});
