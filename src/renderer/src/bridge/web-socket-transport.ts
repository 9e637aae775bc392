// The web host's side of BridgeTransport in the browser: calls go out as {id, channel, input} over
// one WebSocket, answers come back by id, pushed events fan out to subscribers. The socket reconnects
// with capped, jittered backoff. A call already sent when the socket drops fails at once with a clear
// error (its outcome is unknown: the host may have carried it out); a call made while reconnecting
// waits for the socket, for a while.
import type { BridgeTransport, Unsubscribe } from '../../../shared/ipc/bridge-api';
import type { ChannelName, EventName } from '../../../shared/ipc/contract';
import type { IpcError, IpcResult } from '../../../shared/ipc/ipc-result';
import { hostMessageSchema, type ClipboardAck } from '../../../shared/ipc/web-socket-protocol';
import { writeAndClearLater, type ClipboardPort } from './tab-clipboard';
import { backoffMs } from '../../../shared/backoff';

/** The members of the browser's WebSocket used here, so tests can pass Node's `ws`. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
}

export interface SocketHandlers {
  onOpen(): void;
  /** Also after an error: the browser always closes a socket that failed. */
  onClose(): void;
  onMessage(data: unknown): void;
}

export type SocketFactory = (url: string, handlers: SocketHandlers) => SocketLike;

function browserSocket(url: string, handlers: SocketHandlers): SocketLike {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.onOpen();
  socket.onclose = () => handlers.onClose();
  socket.onmessage = (event: { data: unknown }) => handlers.onMessage(event.data);
  return socket;
}

export interface WebSocketTransportOptions {
  /** ws://127.0.0.1:PORT/bridge/TOKEN */
  url: string;
  createSocket?: SocketFactory;
  /** How long a call waits for a (re)connection before failing. Default 15 s. */
  connectWaitMs?: number;
  /** First reconnection delay, doubled up to maxBackoffMs. Defaults 250 ms and 5 s. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Where the host's clipboard frames (an explicit vault.copy) are written; absent: refused. */
  clipboard?: ClipboardPort;
}

export interface WebSocketTransport extends BridgeTransport {
  /** Stops reconnecting and fails what is pending (for tests and page unload). */
  close(): void;
}

const OPEN = 1;

function hostError(message: string): IpcResult<never> {
  // INTERNAL: the renderer's error words treat it as "something went wrong in the app"; the message says what.
  const error: IpcError = { code: 'INTERNAL', message };
  return { ok: false, error };
}

interface Pending {
  readonly message: string;
  readonly resolve: (result: IpcResult<unknown>) => void;
  sent: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

export function createWebSocketTransport(options: WebSocketTransportOptions): WebSocketTransport {
  const createSocket = options.createSocket ?? browserSocket;
  const connectWaitMs = options.connectWaitMs ?? 15_000;
  const minBackoffMs = options.minBackoffMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 5_000;
  const clipboard = options.clipboard ?? null;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: SocketLike | null = null;
  let failures = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const settle = (id: number, result: IpcResult<unknown>): void => {
    const call = pending.get(id);
    if (call === undefined) return;
    pending.delete(id);
    if (call.timer !== null) clearTimeout(call.timer);
    call.resolve(result);
  };

  const transmit = (call: Pending): void => {
    if (socket === null || socket.readyState !== OPEN || call.sent) return;
    call.sent = true;
    if (call.timer !== null) clearTimeout(call.timer);
    call.timer = null;
    socket.send(call.message);
  };

  const onMessage = (data: unknown): void => {
    if (typeof data !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const message = hostMessageSchema.safeParse(parsed);
    if (!message.success) return;
    if ('clipboard' in message.data) {
      const { id, text, clearAfterMs } = message.data.clipboard;
      const reply = (ack: ClipboardAck): void => {
        if (socket !== null && socket.readyState === OPEN) socket.send(JSON.stringify(ack));
      };
      if (clipboard === null) {
        reply({ clipboardAck: { id, ok: false, message: 'this browser offers no clipboard to the page' } });
        return;
      }
      writeAndClearLater(clipboard, text, clearAfterMs).then(
        () => reply({ clipboardAck: { id, ok: true } }),
        (error: unknown) => reply({ clipboardAck: { id, ok: false, message: error instanceof Error ? error.message.slice(0, 400) : 'unknown' } }),
      );
    } else if ('event' in message.data) {
      for (const listener of [...(listeners.get(message.data.event) ?? [])]) {
        // One failing screen must not keep the event from the others.
        try {
          listener(message.data.payload);
        } catch (error) {
          console.error('event listener failed', error);
        }
      }
    } else if (message.data.id !== null) {
      settle(message.data.id, message.data.result);
    }
  };

  const scheduleReconnect = (): void => {
    if (closed || reconnectTimer !== null) return;
    failures += 1;
    // Jittered (shared/backoff.ts): tabs of a restarted host do not reconnect in step.
    const delay = backoffMs({ baseMs: minBackoffMs, maxMs: maxBackoffMs }, failures);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, delay);
  };

  const dropped = (which: SocketLike): void => {
    if (socket !== which) return;
    socket = null;
    for (const [id, call] of [...pending]) {
      if (call.sent) settle(id, hostError('the connection to the Procure Desk host was lost before it answered; the action may or may not have been carried out'));
    }
    scheduleReconnect();
  };

  function connect(): void {
    if (closed) return;
    // Handlers refer to this attempt's socket, so a late close of an old socket changes nothing.
    let opened: SocketLike | null = null;
    try {
      opened = createSocket(options.url, {
        onOpen: () => {
          if (opened === null || socket !== opened) return;
          failures = 0;
          for (const call of pending.values()) transmit(call);
        },
        onClose: () => {
          if (opened !== null) dropped(opened);
        },
        onMessage,
      });
    } catch {
      scheduleReconnect();
      return;
    }
    socket = opened;
  }

  connect();

  return {
    invoke(channel: ChannelName, input: unknown): Promise<IpcResult<unknown>> {
      if (closed) return Promise.resolve(hostError('the connection to the Procure Desk host is closed'));
      const id = nextId++;
      return new Promise((resolve) => {
        const call: Pending = { message: JSON.stringify({ id, channel, input }), resolve, sent: false, timer: null };
        pending.set(id, call);
        if (socket !== null && socket.readyState === OPEN) transmit(call);
        else call.timer = setTimeout(() => settle(id, hostError('the Procure Desk host cannot be reached; is `npm run web` still running?')), connectWaitMs);
      });
    },
    subscribe(event: EventName, listener: (payload: unknown) => void): Unsubscribe {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      // Wrapped so that subscribing the same function twice gives two independent subscriptions.
      const entry = (payload: unknown): void => listener(payload);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    close() {
      closed = true;
      if (reconnectTimer !== null) clearTimeout(reconnectTimer);
      const current = socket;
      socket = null;
      for (const id of [...pending.keys()]) settle(id, hostError('the connection to the Procure Desk host is closed'));
      current?.close();
    },
  };
}
