// `--demo`: the sandbox merchant, in this process, as the built-in demo merchant a new user can try
// in one click (AppHost.startDemoMerchant). Its API key goes to core only; it is never printed or
// sent to the browser. The control URL is printed, so tests can drive scenarios and faults.
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
  credentials(): DemoCredentials;
  stop(): Promise<void>;
}

export async function startDemoMerchant(log: (line: string) => void, options: Partial<SandboxOptions> = {}): Promise<DemoMerchant> {
  const sandbox: RunningSandbox = await startSandbox({ ...DEFAULT_OPTIONS, products: DEMO_PRODUCTS, ...options, exitOnStdinClose: false }, (line) => log(`[demo merchant] ${line}`));
  const caCertPem = readFileSync(sandbox.caCertFile, 'utf8');
  return {
    controlUrl: sandbox.controlUrl,
    credentials: () => ({ baseUrl: sandbox.baseUrl, userId: sandbox.userId, apiKey: sandbox.apiKey, caCertPem }),
    stop: () => sandbox.stop(),
  };
}
