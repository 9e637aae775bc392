// Binds every channel of the contract to ipcMain. Each message is checked for its sender frame
// (sender-check.ts) here, and only then handed to the app service as it came: the service's handle()
// is the one place an input is parsed against the channel's schema, with the one (redacting)
// INVALID_INPUT shape, for the Electron window and the web host alike. Whatever happens, the renderer
// gets an IpcResult: nothing is thrown across IPC (Electron would forward the error's message, which
// may say more than the renderer should know).
import { CHANNELS, type ChannelName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-result';
import { forbiddenSender, internalError } from './ipc-errors';
import { ipcChannelName } from '../../shared/ipc/ipc-names';
import type { CheckedIpcEvent, SenderCheck } from './sender-check';

/** The part of the app service that answers calls: it parses the raw input itself. */
export interface IpcCallHandler {
  handle(channel: ChannelName, rawInput: unknown): Promise<IpcResult<unknown>>;
}

/** The members of Electron's ipcMain used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: CheckedIpcEvent, ...args: unknown[]) => Promise<IpcResult<unknown>>): void;
  removeHandler(channel: string): void;
}

export interface IpcBindingOptions {
  ipcMain: IpcMainLike;
  service: IpcCallHandler;
  isTrustedSender: SenderCheck;
  /** Told about refused senders and failures, never about inputs. */
  onProblem?: (problem: { channel: ChannelName; kind: 'forbidden-sender' | 'handler-failed'; error?: unknown }) => void;
}

/** Binds every channel; returns a function that removes the handlers again. */
export function bindIpcHandlers(options: IpcBindingOptions): () => void {
  const names = Object.keys(CHANNELS) as ChannelName[];
  for (const channel of names) {
    options.ipcMain.handle(ipcChannelName(channel), (event, ...args) => answer(options, channel, event, args[0]));
  }
  return () => {
    for (const channel of names) options.ipcMain.removeHandler(ipcChannelName(channel));
  };
}

async function answer(options: IpcBindingOptions, channel: ChannelName, event: CheckedIpcEvent, rawInput: unknown): Promise<IpcResult<unknown>> {
  try {
    if (!options.isTrustedSender(event)) {
      options.onProblem?.({ channel, kind: 'forbidden-sender' });
      return forbiddenSender();
    }
    return await options.service.handle(channel, rawInput);
  } catch (error) {
    options.onProblem?.({ channel, kind: 'handler-failed', error });
    return internalError();
  }
}
