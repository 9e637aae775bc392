// The one parse of an IPC call, shared by both hosts: the input is checked against the contract
// (INVALID_INPUT with redacted field messages, the handler never sees it), the channel's handler runs,
// and its answer is checked too (a handler bug is INTERNAL and logged, never a malformed answer).
// Nothing is thrown: every outcome is an IpcResult.
import { CHANNELS, isChannelName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-result';
import type { SecretAwareLogger } from '../logging/logger';
import { INTERNAL_MESSAGE, toIpcError } from './error-mapping';
import type { ChannelHandlers } from './handler-types';

export async function dispatchChannel(handlers: Partial<ChannelHandlers>, logger: SecretAwareLogger, channel: string, rawInput: unknown): Promise<IpcResult<unknown>> {
  if (!isChannelName(channel)) return { ok: false, error: { code: 'INVALID_INPUT', message: 'no such channel' } };
  // A profile's own service has no desk channel (profiles.*): the desk answers those.
  const handler = handlers[channel] as ((input: unknown) => unknown) | undefined;
  if (handler === undefined) return { ok: false, error: { code: 'INVALID_INPUT', message: 'no such channel here' } };
  const spec = CHANNELS[channel];
  const input = spec.input.safeParse(rawInput);
  if (!input.success) {
    return {
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: `the request for ${channel} does not match the contract`,
        fields: input.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: logger.redact(issue.message) })),
      },
    };
  }
  let value: unknown;
  try {
    // The map is keyed by channel (ChannelHandlers), so this handler takes this input.
    value = await handler(input.data);
  } catch (error) {
    return { ok: false, error: toIpcError(error, logger, channel) };
  }
  const output = spec.output.safeParse(value);
  if (!output.success) {
    logger.error('handler answer does not match the contract', { channel, issues: output.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`) });
    return { ok: false, error: { code: 'INTERNAL', message: INTERNAL_MESSAGE } };
  }
  return { ok: true, value: output.data };
}
