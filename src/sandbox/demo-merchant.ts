// The sandbox as the built-in demo merchant a new user can try in one click (AppHost.startDemoMerchant),
// started the same way by both hosts: in Electron main (src/main/app-host.ts) and in the web host's
// `--demo` (src/web-host/run-web-host.ts). Its API key goes to core only; it is never printed or sent to a
// window. The control URL and its token are for whoever started it (the web host prints them so tests
// can drive scenarios and faults).
import { readFile } from 'node:fs/promises';
import { DEFAULT_OPTIONS, DEMO_PRODUCTS, type SandboxOptions } from './sandbox-options';
import { startSandbox } from './start-sandbox';

export interface DemoCredentials {
  baseUrl: string;
  userId: string;
  apiKey: string;
  caCertPem: string;
}

export interface DemoMerchant {
  readonly controlUrl: string;
  /** The control API's bearer token (docs/sandbox.md). */
  readonly controlToken: string;
  credentials(): DemoCredentials;
  stop(): Promise<void>;
}

/**
 * Starts the sandbox with the demo catalog, its lines prefixed `[demo merchant]`. `start` is the
 * sandbox itself unless a test replaces it.
 */
export async function startDemoMerchant(log: (line: string) => void, options: Partial<SandboxOptions> = {}, start: typeof startSandbox = startSandbox): Promise<DemoMerchant> {
  const sandbox = await start({ ...DEFAULT_OPTIONS, products: DEMO_PRODUCTS, ...options, exitOnStdinClose: false }, (line) => log(`[demo merchant] ${line}`));
  const caCertPem = await readFile(sandbox.caCertFile, 'utf8');
  return {
    controlUrl: sandbox.controlUrl,
    controlToken: sandbox.controlToken,
    credentials: () => ({ baseUrl: sandbox.baseUrl, userId: sandbox.userId, apiKey: sandbox.apiKey, caCertPem }),
    stop: () => sandbox.stop(),
  };
}
