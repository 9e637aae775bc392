// The host's side of the core process: starts it, hands it its init, relays the app's contract (the
// AppService the hosts already bind to IPC or a WebSocket), serves its requests for the host's ports,
// and restarts it when it dies. While it is gone the UI is told `core.state: reconnecting`; calls made
// meanwhile wait for the new process; a call that was in flight when it died is answered CORE_RESTARTED
// (it may or may not have been done — every intent is in SQLite before it is sent, and a retried order
// with the same draftRef returns the same intent). Nothing durable lives in the process, so a restart
// loses nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import { EVENTS, type EventName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-result';
import type { AppHost } from '../app/app-context';
import type { AppService } from '../app/app-service';
import type { Logger } from '../logging/logger';
import type { SecretStore } from '../secrets/secret-store';
import type { CoreChild, CoreLauncher } from './core-channel';
import { coreToHostSchema, type CoreInit, type CoreToHost } from './core-process-protocol';
import { createHostCallHandler, type HostCallOutcome } from './host-call-handler';

export type CoreProcessState = 'starting' | 'ready' | 'reconnecting' | 'stopped';

export interface CoreSupervisorOptions {
  readonly launch: CoreLauncher;
  /** The init each process gets; the secret store's kind is read at each start. */
  readonly init: Omit<CoreInit, 'secretStoreKind' | 'capabilities'>;
  readonly secrets: SecretStore;
  readonly host: AppHost;
  /** Core's log lines, already redacted in the core process. */
  readonly logLine: (line: string) => void;
  /** The supervisor's own lines. */
  readonly logger: Logger;
  /** Real ms before each restart attempt after a crash (the last one repeats). */
  readonly restartDelaysMs?: readonly number[];
  /** Real ms a call waits for a core that is restarting before it is answered CORE_UNAVAILABLE. */
  readonly waitForCoreMs?: number;
  /** Real ms a stop waits for the core to close before it is killed. */
  readonly stopTimeoutMs?: number;
}

export interface SupervisedCore extends AppService {
  /** The running core process's pid (tests kill it to prove a restart loses nothing). */
  pid(): number | undefined;
  state(): CoreProcessState;
  /** Resolves when a core process is ready again (at once when it is). */
  whenReady(): Promise<void>;
}

const DEFAULT_RESTART_DELAYS_MS = [100, 500, 1_000, 2_000, 5_000];
const DEFAULT_WAIT_FOR_CORE_MS = 60_000;
const DEFAULT_STOP_TIMEOUT_MS = 10_000;

interface InFlight {
  readonly resolve: (result: IpcResult<unknown>) => void;
  /** Runs a function in the caller's async context (the host's requests this call leads to run there). */
  readonly inCallerContext: <R>(fn: () => R) => R;
}

interface Waiting {
  readonly send: () => void;
  readonly fail: () => void;
}

const isEventName = (name: string): name is EventName => Object.hasOwn(EVENTS, name);

export function createCoreSupervisor(options: CoreSupervisorOptions): SupervisedCore {
  const restartDelays = options.restartDelaysMs ?? DEFAULT_RESTART_DELAYS_MS;
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const answerHost = createHostCallHandler(options.secrets, options.host);
  const inFlight = new Map<number, InFlight>();
  const waiting = new Set<Waiting>();
  const readyWaiters = new Set<() => void>();
  const run = { child: null as CoreChild | null, state: 'stopped' as CoreProcessState, nextCallId: 0, crashes: 0, stopping: false, lastKind: options.secrets.kind };
  let firstStart: { resolve: () => void; reject: (error: Error) => void } | null = null;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;

  const emit = (event: EventName, payload: unknown): void => {
    for (const listener of listeners) listener(event, payload);
  };

  const setState = (state: CoreProcessState): void => {
    run.state = state;
    if (state === 'ready' || state === 'reconnecting') emit('core.state', { state });
    if (state === 'ready') {
      for (const resolve of readyWaiters) resolve();
      readyWaiters.clear();
      for (const call of waiting) call.send();
      waiting.clear();
    }
  };

  const post = (message: unknown): void => {
    try {
      run.child?.post(message);
    } catch (error) {
      options.logger.warn('a message could not be posted to the core process', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };

  const onHostCall = async (message: Extract<CoreToHost, { t: 'hostCall' }>, child: CoreChild): Promise<void> => {
    const caller = message.callId === undefined ? undefined : inFlight.get(message.callId);
    const answer = (): Promise<HostCallOutcome> => answerHost(message.method, message.args);
    const outcome = await (caller === undefined ? answer() : caller.inCallerContext(answer));
    if (run.child !== child) return;
    // A move of the secrets (memory → passphrase file) is told before the answer that caused it.
    if (options.secrets.kind !== run.lastKind) {
      run.lastKind = options.secrets.kind;
      post({ t: 'secretStoreKind', kind: run.lastKind });
    }
    post(outcome.ok ? { t: 'hostValue', id: message.id, value: outcome.value } : { t: 'hostError', id: message.id, error: outcome.error });
  };

  const onMessage = (raw: unknown, child: CoreChild): void => {
    if (run.child !== child) return;
    const parsed = coreToHostSchema.safeParse(raw);
    if (!parsed.success) {
      options.logger.warn('a message from the core process does not match the protocol and was ignored', { issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`) });
      return;
    }
    const message = parsed.data;
    switch (message.t) {
      case 'ready':
        run.crashes = 0;
        firstStart?.resolve();
        firstStart = null;
        setState('ready');
        return;
      case 'failed':
        options.logger.error('the core process could not open', { error: message.message });
        if (firstStart !== null) {
          firstStart.reject(new Error(`core could not open: ${message.message}`));
          firstStart = null;
          run.stopping = true;
        }
        child.kill();
        return;
      case 'result': {
        const call = inFlight.get(message.id);
        inFlight.delete(message.id);
        call?.resolve(message.result);
        return;
      }
      case 'event': {
        if (!isEventName(message.name)) {
          options.logger.warn('the core process pushed an event the contract does not know', { event: message.name.slice(0, 64) });
          return;
        }
        const payload = EVENTS[message.name].safeParse(message.payload);
        if (!payload.success) {
          options.logger.warn('the core process pushed an event that does not match the contract', { event: message.name });
          return;
        }
        emit(message.name, payload.data);
        return;
      }
      case 'hostCall':
        void onHostCall(message, child);
        return;
      case 'log':
        options.logLine(message.line);
        return;
      case 'stopped':
        return;
    }
  };

  const onExit = (code: number | null, child: CoreChild): void => {
    if (run.child !== child) return;
    run.child = null;
    // Calls it had: the outcome is unknown to the host, so it says so instead of guessing.
    for (const [id, call] of inFlight) {
      inFlight.delete(id);
      call.resolve({ ok: false, error: { code: 'CORE_RESTARTED', message: 'the app restarted its core while this was being done; look before trying again' } });
    }
    if (run.stopping) {
      run.state = 'stopped';
      return;
    }
    options.logger.error('the core process ended; restarting it', { code });
    setState('reconnecting');
    const delay = restartDelays[Math.min(run.crashes, restartDelays.length - 1)] ?? 1_000;
    run.crashes += 1;
    restartTimer = setTimeout(() => {
      restartTimer = null;
      if (!run.stopping) launch();
    }, delay);
  };

  const launch = (): void => {
    const child = options.launch();
    run.child = child;
    child.onMessage((message) => onMessage(message, child));
    child.onExit((code) => onExit(code, child));
    run.lastKind = options.secrets.kind;
    const capabilities = {
      writeClipboard: options.host.writeClipboard !== undefined,
      chooseExportPath: options.host.chooseExportPath !== undefined,
      usePassphraseFile: options.host.usePassphraseFile !== undefined,
    };
    post({ t: 'init', init: { ...options.init, secretStoreKind: run.lastKind, capabilities } });
  };

  const call = (channel: string, input: unknown): Promise<IpcResult<unknown>> =>
    new Promise((resolve) => {
      const inCallerContext = AsyncLocalStorage.snapshot();
      const send = (): void => {
        const id = run.nextCallId++;
        inFlight.set(id, { resolve, inCallerContext });
        post({ t: 'call', id, channel, input });
      };
      if (run.state === 'ready' && run.child !== null) {
        send();
        return;
      }
      // Not sent yet, so sending it to the next process is safe: it waits, within a deadline.
      const entry: Waiting = {
        send: () => {
          clearTimeout(timer);
          send();
        },
        fail: () => resolve({ ok: false, error: { code: 'CORE_UNAVAILABLE', message: 'the app could not reach its core; try again in a moment' } }),
      };
      const timer = setTimeout(() => {
        waiting.delete(entry);
        entry.fail();
      }, options.waitForCoreMs ?? DEFAULT_WAIT_FOR_CORE_MS);
      waiting.add(entry);
    });

  return {
    handle: call,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (run.state !== 'stopped') return Promise.resolve();
      run.stopping = false;
      run.state = 'starting';
      const started = new Promise<void>((resolve, reject) => {
        firstStart = { resolve, reject };
      });
      launch();
      return started;
    },
    async stop() {
      run.stopping = true;
      if (restartTimer !== null) clearTimeout(restartTimer);
      for (const entry of waiting) entry.fail();
      waiting.clear();
      const child = run.child;
      if (child === null) {
        run.state = 'stopped';
        return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill();
        }, options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS);
        child.onExit(() => {
          clearTimeout(timer);
          resolve();
        });
        post({ t: 'stop' });
      });
    },
    pid: () => run.child?.pid,
    state: () => run.state,
    whenReady: () => (run.state === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => readyWaiters.add(resolve))),
  };
}
