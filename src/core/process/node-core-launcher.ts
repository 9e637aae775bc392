// Starts the core process with Node's child_process.fork (the web host, the bench and tests; Electron
// main has its own launcher over utilityProcess.fork). The child gets no secret in argv or its
// environment: the environment is an allowlist, so a PROCURE_PASSPHRASE or PROCURE_API_KEY the host was
// started with stays in the host.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { CoreChild, CoreLauncher } from './core-channel';

/** The entry as source: run through tsx's loader, as the web host itself is (`npm run web`). */
export const CORE_PROCESS_SOURCE_ENTRY = join(import.meta.dirname, 'core-process-main.ts');

/**
 * Variables the core process may see: where things are, the locale and the time zone, which CAs the
 * merchant's TLS may be signed by (NODE_EXTRA_CA_CERTS, a file path, as a buyer's system CA store), nothing secret.
 */
const INHERITED_ENV = /^(PATH|HOME|USERPROFILE|TMPDIR|TEMP|TMP|LANG|LANGUAGE|LC_[A-Z]+|TZ|SystemRoot|SYSTEMROOT|windir|APPDATA|LOCALAPPDATA|XDG_[A-Z_]+|NODE_ENV|NODE_EXTRA_CA_CERTS)$/;

export function coreProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (INHERITED_ENV.test(name) && value !== undefined) kept[name] = value;
  return kept;
}

export interface NodeCoreLauncherOptions {
  /** Default: the source entry, loaded with tsx. */
  readonly entry?: string;
  /** Where the child's stderr goes (its own crash traces; its log lines come over the port). */
  readonly stderr?: 'inherit' | 'ignore';
}

export function nodeCoreLauncher(options: NodeCoreLauncherOptions = {}): CoreLauncher {
  const entry = options.entry ?? CORE_PROCESS_SOURCE_ENTRY;
  const execArgv = entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
  return () => {
    const child = fork(entry, [], {
      execArgv,
      env: coreProcessEnv(process.env),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', options.stderr ?? 'inherit', 'ipc'],
    });
    return {
      get pid() {
        return child.pid;
      },
      post(message) {
        if (child.connected) child.send(message as object);
      },
      onMessage(listener) {
        child.on('message', (message: unknown) => listener(message));
      },
      onExit(listener) {
        if (child.exitCode !== null || child.signalCode !== null) {
          listener(child.exitCode);
          return;
        }
        child.once('exit', (code) => listener(code));
      },
      kill() {
        child.kill('SIGKILL');
      },
    } satisfies CoreChild;
  };
}
