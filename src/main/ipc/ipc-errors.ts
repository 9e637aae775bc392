// The refusals main answers by itself, before a call reaches the app service (an input the contract
// refuses is the app service's INVALID_INPUT, not main's). Messages never echo the input: it may hold
// the API key or a purchase field.
import type { IpcResult } from '../../shared/ipc/ipc-result';

export function forbiddenSender(): IpcResult<never> {
  return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'this request did not come from the app window' } };
}

export function internalError(): IpcResult<never> {
  return { ok: false, error: { code: 'INTERNAL', message: 'something went wrong in the app; please try again' } };
}
