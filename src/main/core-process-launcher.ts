// Starts the core process with Electron's utilityProcess.fork (src/core/process/core-channel.ts is the
// other end: it finds `process.parentPort` there). The process gets no secret in argv or its environment:
// no arguments, and the environment is core's allowlist (coreProcessEnv), so a PROCURE_PASSPHRASE or an
// API key main was started with stays in main. Secrets reach core only as answers over the port.
import { join } from 'node:path';
import { utilityProcess } from 'electron';
import { coreProcessEnv, type CoreChild, type CoreLauncher } from '../core';

/** The built entry (electron.vite.config.ts builds src/core/process/core-process-main.ts to it). */
export const CORE_PROCESS_FILE = 'core-process.js';

/** out/main/core-process.js, beside main's own out/main/index.js (inside app.asar when packaged). */
export function coreProcessEntry(mainDir: string = import.meta.dirname): string {
  return join(mainDir, CORE_PROCESS_FILE);
}

export interface ElectronCoreLauncherOptions {
  readonly entry: string;
  /** The process's own fatal errors (V8 out of memory and the like); its exit follows. */
  readonly onError: (problem: { type: string; location: string }) => void;
}

export function electronCoreLauncher(options: ElectronCoreLauncherOptions): CoreLauncher {
  return () => {
    const child = utilityProcess.fork(options.entry, [], {
      serviceName: 'Procure Desk core',
      env: coreProcessEnv(process.env),
      // Core's log lines come over the port, redacted; only a crash trace would use stderr.
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // An EventEmitter's 'error' with no listener would throw in main and take the window down with it.
    child.on('error', (type, location) => options.onError({ type, location }));
    // Electron forgets the pid at exit; the supervisor may ask for it while it handles that exit.
    let exited: { code: number } | null = null;
    const exitListeners: ((code: number | null) => void)[] = [];
    child.once('exit', (code) => {
      exited = { code };
      for (const listener of exitListeners.splice(0)) listener(code);
    });
    return {
      get pid() {
        return child.pid;
      },
      post(message) {
        if (exited === null) child.postMessage(message);
      },
      onMessage(listener) {
        child.on('message', (message: unknown) => listener(message));
      },
      onExit(listener) {
        if (exited !== null) listener(exited.code);
        else exitListeners.push(listener);
      },
      kill() {
        child.kill();
      },
    } satisfies CoreChild;
  };
}
