// A transport that exists only once something asynchronous is done (the web host's session is opened
// before its WebSocket may be). Calls made before then wait for it; subscriptions made before then
// are attached when it arrives, and one dropped in the meantime is never attached.
import type { BridgeTransport, Unsubscribe } from '../../../shared/ipc/bridge-api';
import type { ChannelName, EventName } from '../../../shared/ipc/contract';
import type { IpcResult } from '../../../shared/ipc/ipc-result';

export function deferredTransport(ready: Promise<BridgeTransport>): BridgeTransport {
  let transport: BridgeTransport | null = null;
  const early = new Set<{ event: EventName; listener: (payload: unknown) => void; detach: Unsubscribe | null }>();
  void ready.then((arrived) => {
    transport = arrived;
    for (const entry of early) entry.detach = arrived.subscribe(entry.event, entry.listener);
  });
  return {
    async invoke(channel: ChannelName, input: unknown): Promise<IpcResult<unknown>> {
      return (transport ?? (await ready)).invoke(channel, input);
    },
    subscribe(event: EventName, listener: (payload: unknown) => void): Unsubscribe {
      if (transport !== null) return transport.subscribe(event, listener);
      const entry = { event, listener, detach: null as Unsubscribe | null };
      early.add(entry);
      return () => {
        early.delete(entry);
        entry.detach?.();
      };
    },
  };
}
