// The refusals main answers by itself, before a call reaches the app service. Messages never echo
// the input: it may hold the API key or a purchase field.
import type { z } from 'zod';
import type { IpcResult } from '../../shared/ipc/ipc-result';

export function forbiddenSender(): IpcResult<never> {
  return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'this request did not come from the app window' } };
}

export function invalidInput(error: z.ZodError): IpcResult<never> {
  return {
    ok: false,
    error: {
      code: 'INVALID_INPUT',
      message: 'the request is not valid',
      fields: error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    },
  };
}

export function internalError(): IpcResult<never> {
  return { ok: false, error: { code: 'INTERNAL', message: 'something went wrong in the app; please try again' } };
}
