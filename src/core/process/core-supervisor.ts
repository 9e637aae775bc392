// The host's side of the core process: starts it, hands it its init, relays the app's contract (the
// AppService the hosts already bind to IPC or a WebSocket), serves its requests for the host's ports,
// and restarts it when it dies. While it is gone the UI is told `core.state: reconnecting`; calls made
// meanwhile wait for the new process; a call that was in flight when it died is answered CORE_RESTARTED
// (it may or may not have been done — every intent is in SQLite before it is sent, and a retried order
// with the same draftRef returns the same intent). Nothing durable lives in the process, so a restart
// loses nothing.
import { EVENTS, type EventName } from '../../shared/ipc/contract';
import type { AppHost } from '../app/app-context';
import type { AppService } from '../app/app-service';
import type { Logger } from '../logging/logger';
import type { SecretStore } from '../secrets/secret-store';
import type { CoreChild, CoreLauncher } from './core-channel';
import { createCoreCallRelay } from './core-call-relay';
import { coreToHostSchema, type CoreInit, type CoreToHost, type HostCapabilities } from './core-process-protocol';
import { createHostCallHandler } from './host-call-handler';

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

const isEventName = (name: string): name is EventName => Object.hasOwn(EVENTS, name);

/** A pushed event checked against the contract (the process is another process): null when it is not one. */
function checkedEvent(message: Extract<CoreToHost, { t: 'event' }>, logger: Logger): { name: EventName; payload: unknown } | null {
  if (!isEventName(message.name)) {
    logger.warn('the core process pushed an event the contract does not know', { event: message.name.slice(0, 64) });
    return null;
  }
  const payload = EVENTS[message.name].safeParse(message.payload);
  if (!payload.success) {
    logger.warn('the core process pushed an event that does not match the contract', { event: message.name });
    return null;
  }
  return { name: message.name, payload: payload.data };
}

/** Which AppHost methods the core's proxy offers. */
function capabilitiesOf(host: AppHost): HostCapabilities {
  return {
    writeClipboard: host.writeClipboard !== undefined,
    chooseExportPath: host.chooseExportPath !== undefined,
    // Said only by a host that does it (the web host): main's init stays as it was.
    ...(host.exportsAsDownloads === true ? { exportsAsDownloads: true } : {}),
    usePassphraseFile: host.usePassphraseFile !== undefined,
    ...(host.desktop !== undefined ? { desktop: host.desktop } : {}),
  };
}

export function createCoreSupervisor(options: CoreSupervisorOptions): SupervisedCore {
  const restartDelays = options.restartDelaysMs ?? DEFAULT_RESTART_DELAYS_MS;
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const answerHost = createHostCallHandler(options.secrets, options.host);
  const calls = createCoreCallRelay({
    post: (message) => post(message),
    canSend: () => run.state === 'ready' && run.child !== null,
    waitForCoreMs: options.waitForCoreMs ?? DEFAULT_WAIT_FOR_CORE_MS,
  });
  const readyWaiters = new Set<() => void>();
  const run = { child: null as CoreChild | null, state: 'stopped' as CoreProcessState, crashes: 0, stopping: false, lastKind: options.secrets.kind };
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
      calls.sendWaiting();
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
    const outcome = await calls.inCallerContext(message.callId, () => answerHost(message.method, message.args));
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
      case 'result':
        calls.settle(message.id, message.result);
        return;
      case 'event': {
        const event = checkedEvent(message, options.logger);
        if (event !== null) emit(event.name, event.payload);
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
    calls.failInFlight();
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
    post({ t: 'init', init: { ...options.init, secretStoreKind: run.lastKind, capabilities: capabilitiesOf(options.host) } });
  };

  return {
    handle: (channel, input) => calls.call(channel, input),
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
      calls.failWaiting();
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
