// The AppHost of Electron main (core/app/app-context.ts), served to the core process over its port: the
// built-in demo merchant is the sandbox run in this process (started as the web host starts it:
// sandbox/demo-merchant.ts), and the clipboard is the system's, written from main and cleared later. The
// demo's CA lives in userData so its certificate stays the same across restarts.
import type { AppHost } from '../core';
import type { DesktopSupport } from '../shared/ipc/views/settings';
import { startDemoMerchant, type DemoMerchant } from '../sandbox/demo-merchant';
import type { startSandbox } from '../sandbox/start-sandbox';
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
  /** The desktop settings main applies (close to tray, start at login; contract §17). */
  desktop?: DesktopSupport;
}

export function createElectronAppHost(options: ElectronAppHostOptions): ElectronAppHost {
  let demo: Promise<DemoMerchant> | null = null;

  const startOnce = (): Promise<DemoMerchant> => {
    demo ??= startDemoMerchant(options.log, { caDir: options.demoCaDir }, options.startDemo);
    // A failed start may be retried by the next click.
    demo.catch(() => {
      demo = null;
    });
    return demo;
  };

  return {
    async startDemoMerchant() {
      return (await startOnce()).credentials();
    },
    ...(options.chooseExportPath === undefined ? {} : { chooseExportPath: options.chooseExportPath }),
    ...(options.usePassphraseFile === undefined ? {} : { usePassphraseFile: options.usePassphraseFile }),
    ...(options.desktop === undefined ? {} : { desktop: options.desktop }),
    async writeClipboard(text, clearAfterMs) {
      await options.clipboard.write(text, clearAfterMs);
    },
    async stop() {
      const running = demo;
      demo = null;
      if (running !== null) await (await running).stop();
    },
  };
}
