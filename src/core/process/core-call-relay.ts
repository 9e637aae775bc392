// The contract's calls on their way to the core process: each is sent with an id and answered by the
// `result` with that id. A call made while no core is ready waits (it was never sent, so sending it to
// the next process is safe) within a deadline; a call that was in the process when it died is answered
// CORE_RESTARTED, because only the process knew whether it was done.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IpcResult } from '../../shared/ipc/ipc-result';

export interface CoreCallRelay {
  /** Sends the call now when `canSend()`, otherwise when `sendWaiting()` is called, or fails it after the deadline. */
  call(channel: string, input: unknown): Promise<IpcResult<unknown>>;
  /** The core answered call `id` (an unknown id is a late answer and ignored). */
  settle(id: number, result: IpcResult<unknown>): void;
  /** Runs `fn` in the async context of the caller of call `id` (a host request it led to runs there), or plainly. */
  inCallerContext<R>(id: number | undefined, fn: () => R): R;
  /** A core is ready: the waiting calls go now. */
  sendWaiting(): void;
  /** The process died: every call in it is answered CORE_RESTARTED. */
  failInFlight(): void;
  /** The host stops: every waiting call is answered CORE_UNAVAILABLE. */
  failWaiting(): void;
}

export interface CoreCallRelayOptions {
  readonly post: (message: { t: 'call'; id: number; channel: string; input: unknown }) => void;
  readonly canSend: () => boolean;
  readonly waitForCoreMs: number;
}

interface InFlight {
  readonly resolve: (result: IpcResult<unknown>) => void;
  readonly inCallerContext: <R>(fn: () => R) => R;
}

interface Waiting {
  readonly send: () => void;
  readonly fail: () => void;
}

const RESTARTED: IpcResult<unknown> = { ok: false, error: { code: 'CORE_RESTARTED', message: 'the app restarted its core while this was being done; look before trying again' } };
const UNAVAILABLE: IpcResult<unknown> = { ok: false, error: { code: 'CORE_UNAVAILABLE', message: 'the app could not reach its core; try again in a moment' } };

export function createCoreCallRelay(options: CoreCallRelayOptions): CoreCallRelay {
  const inFlight = new Map<number, InFlight>();
  const waiting = new Set<Waiting>();
  let nextId = 0;

  return {
    call: (channel, input) =>
      new Promise((resolve) => {
        // Host requests this call leads to are answered in the caller's context (the web host's
        // browser clipboard writes to the tab that asked).
        const inCallerContext = AsyncLocalStorage.snapshot();
        const send = (): void => {
          const id = nextId++;
          inFlight.set(id, { resolve, inCallerContext });
          options.post({ t: 'call', id, channel, input });
        };
        if (options.canSend()) {
          send();
          return;
        }
        const entry: Waiting = {
          send: () => {
            clearTimeout(timer);
            send();
          },
          fail: () => {
            clearTimeout(timer);
            resolve(UNAVAILABLE);
          },
        };
        const timer = setTimeout(() => {
          waiting.delete(entry);
          entry.fail();
        }, options.waitForCoreMs);
        waiting.add(entry);
      }),
    settle(id, result) {
      const call = inFlight.get(id);
      inFlight.delete(id);
      call?.resolve(result);
    },
    inCallerContext(id, fn) {
      const caller = id === undefined ? undefined : inFlight.get(id);
      return caller === undefined ? fn() : caller.inCallerContext(fn);
    },
    sendWaiting() {
      const entries = [...waiting];
      waiting.clear();
      for (const entry of entries) entry.send();
    },
    failInFlight() {
      const calls = [...inFlight.values()];
      inFlight.clear();
      for (const call of calls) call.resolve(RESTARTED);
    },
    failWaiting() {
      const entries = [...waiting];
      waiting.clear();
      for (const entry of entries) entry.fail();
    },
  };
}
