// Binds every channel of the contract to ipcMain. Each message is checked in this order: the sender
// frame (sender-check.ts), then the input against the channel's schema, and only then handed to the
// app service. Whatever happens, the renderer gets an IpcResult: nothing is thrown across IPC
// (Electron would forward the error's message, which may say more than the renderer should know).
import { CHANNELS, type ChannelName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-result';
import { forbiddenSender, internalError, invalidInput } from './ipc-errors';
import { ipcChannelName } from '../../shared/ipc/ipc-names';
import type { CheckedIpcEvent, SenderCheck } from './sender-check';

/** The part of the app service that answers calls. */
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
    const parsed = CHANNELS[channel].input.safeParse(rawInput);
    if (!parsed.success) return invalidInput(parsed.error);
    return await options.service.handle(channel, parsed.data);
  } catch (error) {
    options.onProblem?.({ channel, kind: 'handler-failed', error });
    return internalError();
  }
}
