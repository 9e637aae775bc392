// What the core process does with its port: waits for the host's init, opens core and the app service
// with the host's ports as proxies, answers the contract's calls, forwards pushed events and log lines,
// and stops cleanly when asked. The executable entry is core-process-main.ts; this file is testable
// in-process with any ParentPort.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AppService } from '../app/app-service';
import { createDeskService } from '../app/desk-service';
import { openDesk, type Desk } from '../desk/desk';
import { RedactingLogger } from '../logging/redacting-logger';
import { createScaledClock } from '../platform/clock';
import type { ParentPort } from './core-channel';
import { coreInitSchema, hostToCoreSchema, type CoreInit, type HostToCore } from './core-process-protocol';
import { createHostProxy, type HostProxy } from './host-proxy';

interface OpenCore {
  readonly desk: Desk;
  readonly service: AppService;
  readonly proxy: HostProxy;
}

export interface CoreProcessRuntime {
  /** Resolves when the host asked to stop and everything is closed (the caller then exits). */
  readonly stopped: Promise<void>;
}

export function runCoreProcess(port: ParentPort): CoreProcessRuntime {
  let open: OpenCore | null = null;
  /** Set before core opens: opening already asks the host for secrets (the vault's data key). */
  let proxy: HostProxy | null = null;
  let opening: Promise<void> | null = null;
  let logger = new RedactingLogger({ sink: (line) => port.post({ t: 'log', line }) });
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });

  /** The host's call being answered, so that the host requests it leads to carry its id. */
  const currentCall = new AsyncLocalStorage<number>();

  const openCore = async (init: CoreInit): Promise<void> => {
    logger = new RedactingLogger({ sink: (line) => port.post({ t: 'log', line }), level: init.logLevel });
    const hostProxy = createHostProxy(port, init.capabilities, init.secretStoreKind, () => currentCall.getStore());
    proxy = hostProxy;
    let desk: Desk | null = null;
    try {
      // Every merchant profile of the data folder, each its own core (contract §15).
      desk = openDesk({
        dataDir: init.dataDir,
        secrets: hostProxy.secrets,
        logger,
        ...(init.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: init.requestTimeoutMs }),
        ...(init.timeScale === undefined ? {} : { clock: createScaledClock(init.timeScale) }),
      });
      const service = createDeskService(desk, hostProxy.host, {
        logger,
        secrets: hostProxy.secrets,
        ...(init.changeScanIntervalMs === undefined ? {} : { changeScanIntervalMs: init.changeScanIntervalMs }),
        ...(init.clipboardClearMs === undefined ? {} : { clipboardClearMs: init.clipboardClearMs }),
      });
      service.onEvent((name, payload) => port.post({ t: 'event', name, payload }));
      await service.start();
      open = { desk, service, proxy: hostProxy };
      port.post({ t: 'ready' });
    } catch (error) {
      await desk?.close().catch(() => undefined);
      hostProxy.abandon();
      const message = logger.redact(error instanceof Error ? error.message : 'unknown');
      logger.error('core could not open', { error: message });
      port.post({ t: 'failed', message });
    }
  };

  const stop = async (): Promise<void> => {
    if (opening !== null) await opening;
    const current = open;
    open = null;
    if (current !== null) {
      try {
        await current.service.stop();
        await current.desk.close();
      } catch (error) {
        logger.error('core did not close cleanly', { error: logger.redact(error instanceof Error ? error.message : 'unknown') });
      }
      current.proxy.abandon();
    }
    port.post({ t: 'stopped' });
    markStopped();
  };

  const handle = (message: HostToCore): void => {
    switch (message.t) {
      case 'init':
        if (opening === null) opening = openCore(coreInitSchema.parse(message.init));
        return;
      case 'call': {
        const current = open;
        if (current === null) {
          port.post({ t: 'result', id: message.id, result: { ok: false, error: { code: 'INTERNAL', message: 'the core is not open yet' } } });
          return;
        }
        const id = message.id;
        void currentCall.run(id, () => current.service.handle(message.channel, message.input)).then((result) => port.post({ t: 'result', id, result }));
        return;
      }
      case 'hostValue':
        proxy?.settle(message.id, { ok: true, value: message.value });
        return;
      case 'hostError':
        proxy?.settle(message.id, { ok: false, error: message.error });
        return;
      case 'secretStoreKind':
        proxy?.setSecretStoreKind(message.kind);
        return;
      case 'stop':
        void stop();
        return;
    }
  };

  port.onMessage((raw) => {
    const message = hostToCoreSchema.safeParse(raw);
    if (!message.success) {
      // Another process's bad message: said in the log, never acted on.
      logger.warn('a message from the host does not match the protocol and was ignored', { issues: message.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`) });
      return;
    }
    handle(message.data);
  });

  return { stopped };
}
