import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, EVENTS } from '../../src/shared/ipc/contract';

// The preload runs against a fake `electron`: contextBridge records what is exposed, ipcRenderer
// records invokes and listeners so a test can play main's side.
type Listener = (event: unknown, ...args: unknown[]) => void;
const fake = vi.hoisted(() => {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const exposed: { key: string; api: unknown }[] = [];
  const ipcRenderer = {
    invoke: vi.fn((_channel: string, ..._args: unknown[]): Promise<unknown> => Promise.resolve({ ok: true, value: null })),
    on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      let set = listeners.get(channel);
      if (set === undefined) listeners.set(channel, (set = new Set()));
      set.add(listener);
    }),
    removeListener: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      listeners.get(channel)?.delete(listener);
    }),
    send: vi.fn(),
  };
  return {
    listeners,
    exposed,
    ipcRenderer,
    electron: {
      ipcRenderer,
      contextBridge: {
        exposeInMainWorld: vi.fn((key: string, api: unknown) => {
          exposed.push({ key, api });
        }),
      },
    },
  };
});
vi.mock('electron', () => fake.electron);

/** Main pushing an event the way webContents.send arrives in the preload. */
function pushFromMain(channel: string, payload: unknown): { event: unknown } {
  const event = { sender: fake.ipcRenderer, senderId: 0, ports: [] };
  for (const listener of fake.listeners.get(channel) ?? new Set<Listener>()) listener(event, payload);
  return { event };
}

type Api = Record<string, unknown>;
let api: Api;

beforeAll(async () => {
  await import('../../src/preload/index');
  const only = fake.exposed[0];
  if (only === undefined) throw new Error('nothing exposed');
  api = only.api as Api;
});

function namespace(name: string): Record<string, unknown> {
  const value = api[name];
  if (typeof value !== 'object' || value === null) throw new Error(`no namespace ${name}`);
  return value as Record<string, unknown>;
}

function member(path: string): (...args: unknown[]) => unknown {
  const [ns = '', name = ''] = path.split('.');
  const value = namespace(ns)[name];
  if (typeof value !== 'function') throw new Error(`no function ${path}`);
  return value as (...args: unknown[]) => unknown;
}

describe('preload', () => {
  it('exposes exactly one object, procureDesk, frozen', () => {
    // Recorded in beforeAll: vitest clears mock call history before each test, the plain list stays.
    expect(fake.exposed).toHaveLength(1);
    expect(fake.exposed.map((e) => e.key)).toEqual(['procureDesk']);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('has exactly the contract members (one per channel, one on… per event), the unlock step and platform', () => {
    const expected = new Map<string, Set<string>>();
    const add = (ns: string, name: string): void => {
      if (!expected.has(ns)) expected.set(ns, new Set());
      expected.get(ns)?.add(name);
    };
    for (const channel of Object.keys(CHANNELS)) {
      const [ns = '', name = ''] = channel.split('.');
      add(ns, name);
    }
    for (const event of Object.keys(EVENTS)) {
      const [ns = '', name = ''] = event.split('.');
      add(ns, `on${name.charAt(0).toUpperCase()}${name.slice(1)}`);
    }
    expect(Object.keys(api).sort()).toEqual([...expected.keys(), 'unlock', 'platform'].sort());
    expect(api['platform']).toBe(process.platform);
    // The unlock step before core opens (shared/ipc/unlock.ts): its two calls and nothing else.
    const unlock = namespace('unlock');
    expect(Object.isFrozen(unlock)).toBe(true);
    expect(Object.keys(unlock).sort()).toEqual(['state', 'submit']);
    for (const [ns, members] of expected) {
      const value = namespace(ns);
      expect(Object.isFrozen(value)).toBe(true);
      expect(Object.keys(value).sort()).toEqual([...members].sort());
      for (const name of members) expect(typeof value[name]).toBe('function');
    }
  });

  it('offers no raw ipcRenderer and no generic invoke or send anywhere', () => {
    const seen = new Set<unknown>();
    const walk = (value: unknown, path: string): void => {
      if (typeof value !== 'object' || value === null || seen.has(value)) return;
      seen.add(value);
      expect(value, path).not.toBe(fake.ipcRenderer);
      for (const [key, child] of Object.entries(value)) {
        // A contract channel may be called `send` (aftersales.send): a typed member, not a generic one.
        const isChannel = Object.hasOwn(CHANNELS, `${path}.${key}`.replace(/^procureDesk\./, ''));
        if (!isChannel) expect(['invoke', 'send', 'sendSync', 'on', 'ipcRenderer', 'removeListener'], `${path}.${key}`).not.toContain(key);
        expect(child, `${path}.${key}`).not.toBe(fake.ipcRenderer);
        walk(child, `${path}.${key}`);
      }
    };
    walk(api, 'procureDesk');
  });

  it('calls a channel on its pd: wire name with the input only, and returns the checked value', async () => {
    const account = { accountRef: 1, userId: '170001', nickname: '测试', accessState: 'active', balanceFen: 100_000, currency: 'CNY', readAt: 1_700_000_000 };
    fake.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: account });
    await expect(member('account.get')()).resolves.toEqual(account);
    expect(fake.ipcRenderer.invoke).toHaveBeenLastCalledWith('pd:account.get', undefined);

    fake.ipcRenderer.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'NOT_CONNECTED', message: 'connect first' } });
    await expect(member('orders.get')({ clientOrderRef: 'PD_1' })).rejects.toMatchObject({ error: { code: 'NOT_CONNECTED' } });
    expect(fake.ipcRenderer.invoke).toHaveBeenLastCalledWith('pd:orders.get', { clientOrderRef: 'PD_1' });
  });

  it('turns a missing main handler into an IpcCallError, not a raw Electron error', async () => {
    fake.ipcRenderer.invoke.mockRejectedValueOnce(new Error("Error invoking remote method 'pd:account.get': No handler registered"));
    await expect(member('account.get')()).rejects.toMatchObject({ name: 'IpcCallError', error: { code: 'INTERNAL' } });
  });

  it('delivers event payloads without the IPC event object, and every subscription unsubscribes', () => {
    const received: unknown[][] = [];
    const unsubscribe = member('orders.onChanged')((...args: unknown[]) => received.push(args));
    expect(typeof unsubscribe).toBe('function');
    expect(fake.ipcRenderer.on).toHaveBeenLastCalledWith('pd-event:orders.changed', expect.any(Function));

    pushFromMain('pd-event:orders.changed', { clientOrderRefs: ['PD_1'] });
    expect(received).toEqual([[{ clientOrderRefs: ['PD_1'] }]]);
    // Nothing off-contract reaches the listener either.
    pushFromMain('pd-event:orders.changed', { clientOrderRefs: 'all' });
    expect(received).toHaveLength(1);

    (unsubscribe as () => void)();
    (unsubscribe as () => void)();
    expect(fake.listeners.get('pd-event:orders.changed')?.size).toBe(0);
    pushFromMain('pd-event:orders.changed', { clientOrderRefs: ['PD_2'] });
    expect(received).toHaveLength(1);
  });

  it('subscribes every event on its own pd-event: wire name', () => {
    for (const event of Object.keys(EVENTS)) {
      const [ns = '', name = ''] = event.split('.');
      const unsubscribe = member(`${ns}.on${name.charAt(0).toUpperCase()}${name.slice(1)}`)(() => undefined) as () => void;
      expect(fake.ipcRenderer.on).toHaveBeenLastCalledWith(`pd-event:${event}`, expect.any(Function));
      unsubscribe();
      expect(fake.listeners.get(`pd-event:${event}`)?.size ?? 0).toBe(0);
    }
  });
});
