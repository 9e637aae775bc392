// On the host's side: the core process's requests for the host's ports (its secret store and AppHost),
// checked argument by argument — the asker is another process — and answered as `hostValue` or `hostError`.
import { z } from 'zod';
import type { AppHost } from '../app/app-context';
import type { SecretStore } from '../secrets/secret-store';
import type { HostMethod } from './core-process-protocol';

const ARGS = {
  'secrets.get': z.tuple([z.string()]),
  'secrets.set': z.tuple([z.string(), z.string()]),
  'secrets.delete': z.tuple([z.string()]),
  startDemoMerchant: z.tuple([]),
  writeClipboard: z.tuple([z.string(), z.number().int().nonnegative()]),
  chooseExportPath: z.tuple([z.string()]),
  usePassphraseFile: z.tuple([z.string()]),
} as const satisfies Record<HostMethod, z.ZodType>;

export type HostCallOutcome = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; code?: string } };

class HostCallRefused extends Error {
  override readonly name = 'HostCallRefused';
}

function errorOutcome(error: unknown): HostCallOutcome {
  if (!(error instanceof Error)) return { ok: false, error: { name: 'Error', message: 'the host failed' } };
  const code = (error as Error & { code?: unknown }).code;
  return { ok: false, error: { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) } };
}

export function createHostCallHandler(secrets: SecretStore, host: AppHost): (method: HostMethod, args: readonly unknown[]) => Promise<HostCallOutcome> {
  const run = async (method: HostMethod, args: readonly unknown[]): Promise<unknown> => {
    switch (method) {
      case 'secrets.get':
        return secrets.get(...ARGS[method].parse(args));
      case 'secrets.set':
        return secrets.set(...ARGS[method].parse(args));
      case 'secrets.delete':
        return secrets.delete(...ARGS[method].parse(args));
      case 'startDemoMerchant':
        ARGS[method].parse(args);
        return host.startDemoMerchant();
      case 'writeClipboard': {
        if (host.writeClipboard === undefined) throw new HostCallRefused('this host has no clipboard');
        return host.writeClipboard(...ARGS[method].parse(args));
      }
      case 'chooseExportPath': {
        if (host.chooseExportPath === undefined) throw new HostCallRefused('this host cannot export');
        return host.chooseExportPath(...ARGS[method].parse(args));
      }
      case 'usePassphraseFile': {
        if (host.usePassphraseFile === undefined) throw new HostCallRefused('this host offers no passphrase file');
        return host.usePassphraseFile(...ARGS[method].parse(args));
      }
    }
  };
  return async (method, args) => {
    try {
      const value = await run(method, args);
      return { ok: true, value: value ?? null };
    } catch (error) {
      if (error instanceof z.ZodError) return { ok: false, error: { name: 'HostCallRefused', message: `the arguments of ${method} do not match the protocol` } };
      return errorOutcome(error);
    }
  };
}
