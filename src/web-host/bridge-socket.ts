// One browser tab's WebSocket: calls in, answers and pushed events out. Whatever arrives is parsed,
// never trusted: an unreadable message gets an error answer (id null when even the id is lost), an
// unknown channel too, and a failure inside the service becomes INTERNAL rather than a crash.
import type { WebSocket } from 'ws';
import { isChannelName } from '../shared/ipc/contract';
import type { IpcError, IpcResult } from '../shared/ipc/ipc-result';
import { callMessageSchema, clipboardAckSchema, type AnswerMessage, type ClipboardMessage, type EventMessage } from '../shared/ipc/web-socket-protocol';
import type { Logger } from '../core';
import type { BridgeService } from './bridge-service';
import type { BrowserClipboard } from './browser-clipboard';

function failure(code: IpcError['code'], message: string): IpcResult<never> {
  return { ok: false, error: { code, message } };
}

/** The call's id when the message was JSON with a usable id, so the caller's promise can settle. */
function salvageId(parsed: unknown): number | null {
  if (typeof parsed !== 'object' || parsed === null || !('id' in parsed)) return null;
  const { id } = parsed;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null;
}

/** Says whether a frame may leave (key-guard.ts); a refused frame is replaced or dropped. */
export type FrameCheck = (text: string) => boolean;

/** Sends one frame; false when it did not leave (socket closed, or the key guard stopped it). */
export function send(socket: WebSocket, message: AnswerMessage | EventMessage | ClipboardMessage, allowed: FrameCheck, logger: Logger): boolean {
  // A tab that closed mid-call simply misses its answer.
  if (socket.readyState !== socket.OPEN) return false;
  const text = JSON.stringify(message);
  if (allowed(text)) {
    socket.send(text);
    return true;
  }
  logger.error('web host: a frame carrying an API key was stopped', 'event' in message ? { event: message.event } : 'clipboard' in message ? { clipboard: message.clipboard.id } : { id: message.id });
  if ('id' in message) socket.send(JSON.stringify({ id: message.id, result: failure('INTERNAL', 'the host refused to send this answer') }));
  return false;
}

async function answer(service: BridgeService, parsed: unknown, logger: Logger): Promise<AnswerMessage> {
  const call = callMessageSchema.safeParse(parsed);
  if (!call.success) return { id: salvageId(parsed), result: failure('INVALID_INPUT', 'a call is {id, channel, input}') };
  const { id, channel, input } = call.data;
  if (!isChannelName(channel)) return { id, result: failure('INVALID_INPUT', 'unknown channel') };
  try {
    return { id, result: await service.handle(channel, input) };
  } catch (error) {
    // The service promises never to throw; if it does anyway, the tab still gets an answer.
    logger.error('web host: a handler threw', { channel, error: error instanceof Error ? error.message : String(error) });
    return { id, result: failure('INTERNAL', 'the host failed to handle the call') };
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function serveBridgeSocket(socket: WebSocket, service: BridgeService, allowed: FrameCheck, logger: Logger, clipboard?: BrowserClipboard): void {
  const toThisTab = (message: ClipboardMessage): boolean => send(socket, message, allowed, logger);
  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      send(socket, { id: null, result: failure('INVALID_INPUT', 'calls are JSON text frames') }, allowed, logger);
      return;
    }
    const bytes = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data;
    const parsed = parseJson(bytes.toString('utf8'));
    if (!parsed.ok) {
      send(socket, { id: null, result: failure('INVALID_INPUT', 'the message is not JSON') }, allowed, logger);
      return;
    }
    const ack = clipboardAckSchema.safeParse(parsed.value);
    if (ack.success) {
      clipboard?.acknowledge(ack.data);
      return;
    }
    const answering = (): Promise<AnswerMessage> => answer(service, parsed.value, logger);
    void (clipboard === undefined ? answering() : clipboard.runFor(toThisTab, answering)).then((message) => send(socket, message, allowed, logger));
  });
  socket.on('error', (error) => logger.warn('web host: socket error', { error: error.message }));
}
