// The AppHost of Electron main (core/app/app-context.ts): the built-in demo merchant is the sandbox
// run in this process, and the clipboard is the system's, written from main and cleared later. The
// demo's CA lives in userData so its certificate stays the same across restarts.
import { readFile } from 'node:fs/promises';
import type { AppHost } from '../core';
import { DEFAULT_OPTIONS, DEMO_PRODUCTS } from '../sandbox/sandbox-options';
import { startSandbox, type RunningSandbox } from '../sandbox/start-sandbox';
import type { ClipboardWriter } from './clipboard';

export interface ElectronAppHost extends AppHost {
  /** Stops the demo merchant if it runs (on quit). */
  stop(): Promise<void>;
}

export interface ElectronAppHostOptions {
  clipboard: ClipboardWriter;
  /** A folder of its own for the demo merchant's CA. */
  demoCaDir: string;
  log: (line: string) => void;
  /** Replaceable in tests; the sandbox by default. */
  startDemo?: typeof startSandbox;
  /** The save dialog an export asks (export-dialog.ts); absent: this host cannot export. */
  chooseExportPath?: (suggestedFileName: string) => Promise<string | null>;
  /** Moves memory-only secrets into the passphrase file (desktop-secret-store.ts). */
  usePassphraseFile?: (passphrase: string) => Promise<void>;
}

export function createElectronAppHost(options: ElectronAppHostOptions): ElectronAppHost {
  const start = options.startDemo ?? startSandbox;
  let demo: Promise<{ sandbox: RunningSandbox; caCertPem: string }> | null = null;

  const startOnce = (): Promise<{ sandbox: RunningSandbox; caCertPem: string }> => {
    demo ??= (async () => {
      const sandbox = await start({ ...DEFAULT_OPTIONS, products: DEMO_PRODUCTS, caDir: options.demoCaDir, exitOnStdinClose: false }, (line) => options.log(`[demo merchant] ${line}`));
      return { sandbox, caCertPem: await readFile(sandbox.caCertFile, 'utf8') };
    })();
    // A failed start may be retried by the next click.
    demo.catch(() => {
      demo = null;
    });
    return demo;
  };

  return {
    async startDemoMerchant() {
      const { sandbox, caCertPem } = await startOnce();
      return { baseUrl: sandbox.baseUrl, userId: sandbox.userId, apiKey: sandbox.apiKey, caCertPem };
    },
    ...(options.chooseExportPath === undefined ? {} : { chooseExportPath: options.chooseExportPath }),
    ...(options.usePassphraseFile === undefined ? {} : { usePassphraseFile: options.usePassphraseFile }),
    async writeClipboard(text, clearAfterMs) {
      await options.clipboard.write(text, clearAfterMs);
    },
    async stop() {
      const running = demo;
      demo = null;
      if (running !== null) await (await running).sandbox.stop();
    },
  };
}
