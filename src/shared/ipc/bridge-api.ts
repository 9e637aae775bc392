// The domain-shaped object the renderer uses (`api.orders.place(input)`, `api.orders.onChanged(fn)`),
// generated from the contract for any transport: Electron's preload (ipcRenderer) and the web host
// (a WebSocket) build the same object, so the renderer cannot tell the two hosts apart. Outputs are
// validated here too: the renderer trusts nothing it did not check.
import { CHANNELS, EVENTS, type ChannelInput, type ChannelName, type ChannelOutput, type EventName, type EventPayload } from './contract';
import { IpcCallError, type IpcResult } from './ipc-result';

type NamespaceOf<N extends string> = N extends `${infer A}.${string}` ? A : never;
type MemberOf<N extends string, NS extends string> = N extends `${NS}.${infer M}` ? M : never;
type Namespace = NamespaceOf<ChannelName> | NamespaceOf<EventName>;

type CallOf<C extends ChannelName> = undefined extends ChannelInput<C>
  ? (input?: ChannelInput<C>) => Promise<ChannelOutput<C>>
  : (input: ChannelInput<C>) => Promise<ChannelOutput<C>>;

export type Unsubscribe = () => void;

export type ProcureDeskApi = {
  readonly [NS in Namespace]: {
    readonly [M in MemberOf<ChannelName, NS>]: CallOf<Extract<`${NS}.${M}`, ChannelName>>;
  } & {
    readonly [M in MemberOf<EventName, NS> as `on${Capitalize<M>}`]: (listener: (payload: EventPayload<Extract<`${NS}.${M}`, EventName>>) => void) => Unsubscribe;
  };
};

/** What a host provides: one request/response primitive and one event subscription primitive. */
export interface BridgeTransport {
  invoke(channel: ChannelName, input: unknown): Promise<IpcResult<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
}

function splitName(name: string): [string, string] {
  const dot = name.indexOf('.');
  return [name.slice(0, dot), name.slice(dot + 1)];
}

export function buildBridgeApi(transport: BridgeTransport): ProcureDeskApi {
  const api: Record<string, Record<string, unknown>> = {};
  const namespace = (name: string): Record<string, unknown> => (api[name] ??= {});
  for (const name of Object.keys(CHANNELS) as ChannelName[]) {
    const [ns, member] = splitName(name);
    const { output } = CHANNELS[name];
    namespace(ns)[member] = async (input?: unknown): Promise<unknown> => {
      const result = await transport.invoke(name, input);
      if (!result.ok) throw new IpcCallError(result.error);
      const checked = output.safeParse(result.value);
      if (!checked.success) throw new IpcCallError({ code: 'INTERNAL', message: `unexpected answer on ${name}` });
      return checked.data;
    };
  }
  for (const name of Object.keys(EVENTS) as EventName[]) {
    const [ns, member] = splitName(name);
    const schema = EVENTS[name];
    namespace(ns)[`on${member.charAt(0).toUpperCase()}${member.slice(1)}`] = (listener: (payload: unknown) => void): Unsubscribe =>
      transport.subscribe(name, (payload) => {
        const checked = schema.safeParse(payload);
        if (checked.success) listener(checked.data);
      });
  }
  for (const value of Object.values(api)) Object.freeze(value);
  // The loops above create exactly the members ProcureDeskApi names (both are derived from
  // CHANNELS and EVENTS); TypeScript cannot follow a mapped type built at run time, hence this one
  // assertion, checked by test/shared/ipc/bridge-api.test.ts.
  return Object.freeze(api) as unknown as ProcureDeskApi;
}

export type { ChannelInput, ChannelOutput, EventPayload };
