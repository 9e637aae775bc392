// The pushed side of the contract: a small typed emitter of EVENTS. Every payload is checked against
// its schema before it leaves (a bad payload is a bug: logged, dropped, never sent half-formed), and a
// listener that throws cannot stop the others or the code that emitted.
import { EVENTS, type EventName, type EventPayload } from '../../shared/ipc/contract';
import type { Logger } from '../logging/logger';

export type AppEventListener = (event: EventName, payload: unknown) => void;

export interface AppEvents {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Another emitter's event passed on (the desk's profiles): checked against the contract like any other. */
  relay(event: EventName, payload: unknown): void;
  on(listener: AppEventListener): () => void;
}

export function createAppEvents(logger: Logger): AppEvents {
  const listeners = new Set<AppEventListener>();
  const send = (event: EventName, payload: unknown): void => {
      const checked = EVENTS[event].safeParse(payload);
      if (!checked.success) {
        logger.error('app event does not match the contract; dropped', { event, issues: checked.error.issues.map((i) => i.path.join('.')) });
        return;
      }
      for (const listener of [...listeners]) {
        try {
          listener(event, checked.data);
        } catch (error) {
          logger.warn('app event listener failed', { event, error: error instanceof Error ? error.name : 'unknown' });
        }
      }
  };
  return {
    emit: send,
    relay: send,
    on(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
