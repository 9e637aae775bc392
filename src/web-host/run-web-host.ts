// Composes the web host: storage (web-host-storage.ts), core in its own process (a child started with
// child_process.fork under the supervisor, src/core/process) with this host's ports served to it over
// the port, the optional in-process demo merchant, and the HTTP/WebSocket server. Separate from cli.ts
// so that tests can run a whole host in their own process.
import { join } from 'node:path';
import { AppFailure, createCoreSupervisor, createMerchantImageFetcher, nodeCoreLauncher } from '../core';
import type { AppHost, CoreLauncher, SecretAwareLogger, SupervisedCore } from '../core';
import type { SandboxOptions } from '../sandbox/sandbox-options';
import { createBrowserClipboard, type BrowserClipboard } from './browser-clipboard';
import { relayCoreLogLine } from './core-log-relay';
import { startDemoMerchant, type DemoMerchant } from '../sandbox/demo-merchant';
import { createExportDownloads, EXPORT_DOWNLOAD_TTL_MS, type ExportDownloads } from './export-downloads';
import { openExportFolder, removeUnfinishedExports } from './export-folder';
import { createKeyGuard, guardedSecretStore } from './key-guard';
import { loadRendererFiles } from './renderer-files';
import type { WebHostArgs } from './web-host-args';
import { startWebHost } from './web-host-server';
import { openWebHostStorage } from './web-host-storage';

export const DEFAULT_RENDERER_DIR = join(import.meta.dirname, '..', '..', 'out', 'renderer');

export interface RunningWebHost {
  /** `http://127.0.0.1:PORT/`: the page, which needs a session to do anything. */
  readonly url: string;
  readonly origin: string;
  /** The demo merchant's control API (scenarios, faults), when --demo, and the token it requires. */
  readonly demoControlUrl: string | null;
  readonly demoControlToken: string | null;
  /** `/bridge`, the WebSocket path. */
  readonly socketPath: string;
  /** A one-time URL (`…/#k=SECRET`) that opens one browser session; for the terminal only. */
  issueLaunchUrl(): string;
  /** The core process under its supervisor (tests kill it by pid to prove a restart loses nothing). */
  readonly core: SupervisedCore;
  /** The throwaway data folder of a run without --data (removed by stop), else null. */
  readonly temporaryDataDir: string | null;
  stop(): Promise<void>;
  /** When stop hangs: kills the core process and removes the throwaway folder, synchronously. */
  abandon(): void;
}

export interface RunWebHostOptions {
  args: WebHostArgs;
  passphrase: string | undefined;
  logger: SecretAwareLogger;
  /** Human notices (stderr in the CLI). */
  notice: (line: string) => void;
  /** Sandbox options for --demo, e.g. a faster clock in tests (core's clock then runs as fast: CoreInit.timeScale). */
  demoOptions?: Partial<SandboxOptions>;
  /** How the core process is started. Default: the Node launcher (child_process.fork of the core entry). */
  coreLauncher?: CoreLauncher;
}

/** Without --demo there is no merchant to start: the one-click demo says how to get one. */
function webAppHost(demo: DemoMerchant | null, downloads: ExportDownloads, clipboard: BrowserClipboard): AppHost {
  return {
    startDemoMerchant() {
      if (demo === null) {
        return Promise.reject(new AppFailure('ACTION_NOT_ALLOWED', 'the web host was started without --demo: restart it with `npm run web -- --demo` to try the demo merchant'));
      }
      return Promise.resolve(demo.credentials());
    },
    // The buyer's clipboard is the browser's: the copy goes to the tab that asked (browser-clipboard.ts).
    writeClipboard: (text, clearAfterMs) => clipboard.write(text, clearAfterMs),
    // No save dialog either: the export is written into a private staging folder and handed to the
    // tab that asked as a one-time download (export-downloads.ts), then deleted.
    chooseExportPath: (suggestedFileName) => downloads.choosePath(suggestedFileName),
    exportsAsDownloads: true,
  };
}

export async function runWebHost(options: RunWebHostOptions): Promise<RunningWebHost> {
  const { args, logger, notice } = options;
  // First, so that a missing build stops start-up before anything else is opened.
  const renderer = loadRendererFiles(args.rendererDir ?? DEFAULT_RENDERER_DIR);
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logger.error('web host: stopping failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  try {
    const storage = await openWebHostStorage(args.dataDir, options.passphrase, notice);
    cleanups.push(() => storage.dispose());
    const guard = createKeyGuard();
    const secrets = guardedSecretStore(storage.secrets, guard);
    const demo = args.demo ? await startDemoMerchant((line) => logger.info(line), options.demoOptions) : null;
    if (demo !== null) {
      cleanups.push(() => demo.stop());
      guard.remember(demo.credentials().apiKey);
    }
    const exportsDir = openExportFolder(args.exportsDir ?? join(storage.dataDir, 'exports'));
    notice(`card exports are handed to the browser as downloads; each waits in ${exportsDir} until it is fetched (at most ${EXPORT_DOWNLOAD_TTL_MS / 1000} s)`);
    const downloads = createExportDownloads(exportsDir);
    // Whatever a previous run left staged (it was killed) is deleted, and so is anything unfetched at stop.
    downloads.clear();
    cleanups.push(() => downloads.clear());
    const sweepExports = (): void => {
      downloads.dropUnfinished();
      const removed = removeUnfinishedExports(exportsDir);
      if (removed.length > 0) logger.warn('web host: removed the temporary files of exports that did not finish', { files: removed.length });
    };
    sweepExports();
    const clipboard = createBrowserClipboard();
    // Core runs in a child process; the secret store (guarded) and the AppHost stay here and are
    // served to it over the port — the keys never reach its argv or environment.
    const service = createCoreSupervisor({
      launch: options.coreLauncher ?? nodeCoreLauncher(),
      init: { dataDir: storage.dataDir, logLevel: 'info', ...(options.demoOptions?.timeScale === undefined ? {} : { timeScale: options.demoOptions.timeScale }) },
      secrets,
      host: webAppHost(demo, downloads, clipboard),
      logLine: relayCoreLogLine(logger),
      logger,
    });
    cleanups.push(() => service.stop());
    // The core process died: no export is being written until the new one is up.
    service.onEvent((event, payload) => {
      if (event === 'core.state' && typeof payload === 'object' && payload !== null && 'state' in payload && payload.state === 'reconnecting') sweepExports();
    });
    await service.start();
    const images = createMerchantImageFetcher({ log: (message, fields) => logger.info(message, fields) });
    const bridge = { handle: (channel: string, input: unknown) => service.handle(channel, input), onEvent: (listener: Parameters<typeof service.onEvent>[0]) => service.onEvent(listener), coreReconnecting: () => service.state() === 'reconnecting' };
    const web = await startWebHost({ service: bridge, renderer, logger, port: args.port, allowFrame: (text) => !guard.leaks(text), clipboard, merchantImage: (url) => images.fetch(url), exportDownloads: downloads });
    cleanups.push(() => web.close());
    return {
      url: web.url,
      origin: web.origin,
      socketPath: web.socketPath,
      issueLaunchUrl: () => web.issueLaunchUrl(),
      core: service,
      demoControlUrl: demo?.controlUrl ?? null,
      demoControlToken: demo?.controlToken ?? null,
      temporaryDataDir: storage.temporary ? storage.dataDir : null,
      stop,
      abandon() {
        const pid = service.pid();
        if (pid !== undefined) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        storage.dispose();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
