// Fakes of the Electron objects an IPC message carries: web contents with frames, and ipcMain that
// records its handlers so a test can call them the way Electron would.
import { APP_INDEX_URL } from '../../src/main/app-protocol';
import type { CheckedFrame, CheckedIpcEvent, CheckedWebContents } from '../../src/main/ipc/sender-check';

export const APP_URL = APP_INDEX_URL;

let nextId = 1;

export interface FakeFrame extends CheckedFrame {
  url: string;
}

export function fakeFrame(url: string, parent: CheckedFrame | null, processId: number): FakeFrame {
  return { url, parent, processId, routingId: nextId++ };
}

export interface FakeWebContents extends CheckedWebContents {
  readonly mainFrame: FakeFrame;
  destroyed: boolean;
}

export function fakeWebContents(url = APP_URL): FakeWebContents {
  const id = nextId++;
  const contents: FakeWebContents = {
    id,
    mainFrame: fakeFrame(url, null, 1000 + id),
    destroyed: false,
    isDestroyed: () => contents.destroyed,
  };
  return contents;
}

export type InvokeListener = (event: CheckedIpcEvent, ...args: unknown[]) => Promise<unknown>;

export function fakeIpcMain() {
  const handlers = new Map<string, InvokeListener>();
  return {
    handlers,
    handle(channel: string, listener: InvokeListener): void {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    },
    removeHandler(channel: string): void {
      handlers.delete(channel);
    },
    /** Calls a channel as ipcRenderer.invoke(channel, ...args) from `frame` of `sender` would. */
    invoke(channel: string, sender: CheckedWebContents, frame: CheckedFrame | null, ...args: unknown[]): Promise<unknown> {
      const handler = handlers.get(channel);
      if (handler === undefined) return Promise.reject(new Error(`No handler registered for '${channel}'`));
      return handler({ sender, senderFrame: frame }, ...args);
    },
  };
}
