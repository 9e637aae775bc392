// `--demo`: the sandbox merchant, in this process, as the built-in demo merchant a new user can try
// in one click (AppHost.startDemoMerchant). Its API key goes to core only; it is never printed or
// sent to the browser. The control URL and its token are printed on the host's first line (stdout,
// the terminal of whoever started it), so tests can drive scenarios and faults.
import { readFileSync } from 'node:fs';
import { DEFAULT_OPTIONS, DEMO_PRODUCTS, type SandboxOptions } from '../sandbox/sandbox-options';
import { startSandbox, type RunningSandbox } from '../sandbox/start-sandbox';

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

export async function startDemoMerchant(log: (line: string) => void, options: Partial<SandboxOptions> = {}): Promise<DemoMerchant> {
  const sandbox: RunningSandbox = await startSandbox({ ...DEFAULT_OPTIONS, products: DEMO_PRODUCTS, ...options, exitOnStdinClose: false }, (line) => log(`[demo merchant] ${line}`));
  const caCertPem = readFileSync(sandbox.caCertFile, 'utf8');
  return {
    controlUrl: sandbox.controlUrl,
    controlToken: sandbox.controlToken,
    credentials: () => ({ baseUrl: sandbox.baseUrl, userId: sandbox.userId, apiKey: sandbox.apiKey, caCertPem }),
    stop: () => sandbox.stop(),
  };
}
