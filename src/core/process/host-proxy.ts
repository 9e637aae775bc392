// Inside the core process: the host's ports (the secret store and the AppHost) as proxies that ask the
// host over the message port and wait for its answer. A host that is gone answers nothing, so every
// request has a deadline; a refusal comes back as an Error with the host's name and message.
import { IPC_ERROR_CODES, type IpcErrorCode } from '../../shared/ipc/ipc-result';
import type { AppHost } from '../app/app-context';
import { AppFailure } from '../app/error-mapping';
import type { SecretStore } from '../secrets/secret-store';
import type { HostCapabilities, HostMethod } from './core-process-protocol';
import type { ParentPort } from './core-channel';

/** Real ms the host has to answer; a save dialog waits for the buyer, so it gets much longer. */
const HOST_ANSWER_MS = 30_000;
const BUYER_ANSWER_MS = 30 * 60_000;

export class HostRequestError extends Error {
  constructor(
    readonly hostErrorName: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = hostErrorName;
  }
}

const isIpcErrorCode = (code: string | undefined): code is IpcErrorCode => IPC_ERROR_CODES.some((known) => known === code);

/** A host's AppFailure (e.g. "started without --demo") keeps its code, so the buyer sees the host's words. */
function hostError(error: { name: string; message: string; code?: string | undefined }): Error {
  if (error.name === 'AppFailure' && isIpcErrorCode(error.code)) return new AppFailure(error.code, error.message);
  return new HostRequestError(error.name, error.message, error.code);
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface HostProxy {
  readonly secrets: SecretStore;
  readonly host: AppHost;
  /** Hands the host's answer to the request waiting for it (unknown ids are ignored: a late answer). */
  settle(id: number, outcome: { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; code?: string | undefined } }): void;
  setSecretStoreKind(kind: string): void;
  /** Fails every waiting request (the core is stopping). */
  abandon(): void;
}

/** `callerId`: the id of the host's call being answered, if any (the runtime keeps it per call). */
export function createHostProxy(port: ParentPort, capabilities: HostCapabilities, initialKind: string, callerId: () => number | undefined = () => undefined): HostProxy {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let secretStoreKind = initialKind;

  const ask = (method: HostMethod, args: unknown[], deadlineMs = HOST_ANSWER_MS): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new HostRequestError('HostTimeout', `the host did not answer ${method} in time`));
      }, deadlineMs);
      pending.set(id, { resolve, reject, timer });
      const callId = callerId();
      port.post({ t: 'hostCall', id, method, args, ...(callId === undefined ? {} : { callId }) });
    });

  const text = (value: unknown, method: string): string => {
    if (typeof value !== 'string') throw new HostRequestError('HostProtocolError', `the host answered ${method} with something other than text`);
    return value;
  };
  const textOrNull = (value: unknown, method: string): string | null => (value === null ? null : text(value, method));

  const secrets: SecretStore = {
    get kind() {
      return secretStoreKind;
    },
    get: async (name) => textOrNull(await ask('secrets.get', [name]), 'secrets.get'),
    set: async (name, value) => {
      await ask('secrets.set', [name, value]);
    },
    delete: async (name) => {
      await ask('secrets.delete', [name]);
    },
  };

  const host: AppHost = {
    async startDemoMerchant() {
      const value = await ask('startDemoMerchant', []);
      if (typeof value !== 'object' || value === null) throw new HostRequestError('HostProtocolError', 'the host answered startDemoMerchant with no credentials');
      const record = value as Record<string, unknown>;
      return {
        baseUrl: text(record['baseUrl'], 'startDemoMerchant'),
        userId: text(record['userId'], 'startDemoMerchant'),
        apiKey: text(record['apiKey'], 'startDemoMerchant'),
        caCertPem: text(record['caCertPem'], 'startDemoMerchant'),
      };
    },
    ...(capabilities.writeClipboard
      ? {
          writeClipboard: async (value: string, clearAfterMs: number) => {
            await ask('writeClipboard', [value, clearAfterMs]);
          },
        }
      : {}),
    ...(capabilities.chooseExportPath
      ? { chooseExportPath: async (suggestedFileName: string) => textOrNull(await ask('chooseExportPath', [suggestedFileName], BUYER_ANSWER_MS), 'chooseExportPath') }
      : {}),
    ...(capabilities.exportsAsDownloads === true ? { exportsAsDownloads: true } : {}),
    ...(capabilities.desktop !== undefined ? { desktop: capabilities.desktop } : {}),
    ...(capabilities.usePassphraseFile
      ? {
          usePassphraseFile: async (passphrase: string) => {
            await ask('usePassphraseFile', [passphrase]);
          },
        }
      : {}),
  };

  return {
    secrets,
    host,
    settle(id, outcome) {
      const waiting = pending.get(id);
      if (waiting === undefined) return;
      pending.delete(id);
      clearTimeout(waiting.timer);
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(hostError(outcome.error));
    },
    setSecretStoreKind(kind) {
      secretStoreKind = kind;
    },
    abandon() {
      for (const [id, waiting] of pending) {
        pending.delete(id);
        clearTimeout(waiting.timer);
        waiting.reject(new HostRequestError('HostGone', 'the core is stopping'));
      }
    },
  };
}
