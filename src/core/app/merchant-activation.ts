// Which merchant services run their workers: at most one connection's at a time. Activating another
// stops the previous one's workers first; its webhook side is the one the host attached or, failing
// that, the one the buyer chose in the settings — webhooks are an optimisation, so a webhook side that
// cannot start leaves polling to carry on.
import type { Database } from 'better-sqlite3';
import type { MerchantServices } from '../create-core';
import type { SecretAwareLogger } from '../logging/logger';
import { webhookFactoryFromSettings } from '../webhooks/webhook-from-settings';
import type { WebhookListener } from '../webhooks/webhook-listener';
import { readSettings } from './app-settings';

export interface MerchantActivation {
  /** The services whose workers run now, or null. */
  running(): MerchantServices | null;
  /** Starts these services' workers and webhook side (stopping any other's first). */
  activate(services: MerchantServices): Promise<void>;
  /** Stops the running services' workers; nothing runs afterwards. */
  deactivate(): Promise<void>;
  /** Forgets the running services without stopping them (core.connect already stopped them). */
  forget(): void;
  /** The buyer picked another tunnel or port: the running webhook side is replaced at once. */
  webhookSettingsChanged(): Promise<void>;
}

const why = (error: unknown): string => (error instanceof Error ? error.message : 'unknown');

/** `onRunning` hears which services run now (null: none), e.g. to follow their connection state. */
export function createMerchantActivation(
  db: Database,
  logger: SecretAwareLogger,
  onRunning: (services: MerchantServices | null) => void = () => undefined,
  /** The desk's one receiver for every profile (contract §15.3); absent: this connection's own. */
  listener?: WebhookListener,
): MerchantActivation {
  let running: MerchantServices | null = null;

  const startWebhooks = async (services: MerchantServices): Promise<void> => {
    if (services.webhooks === null) {
      try {
        const factory = webhookFactoryFromSettings(readSettings(db), listener);
        if (factory !== null) services.attachWebhooks(factory);
      } catch (error) {
        logger.warn('the webhook tunnel in the settings cannot be used; orders are tracked by polling', { error: why(error) });
      }
    }
    if (services.webhooks !== null) {
      try {
        await services.webhooks.start();
      } catch (error) {
        // Polling carries on without them, and the health says why.
        logger.warn('webhooks could not start; orders are tracked by polling', { error: why(error) });
      }
    }
  };

  const deactivate = async (): Promise<void> => {
    const current = running;
    running = null;
    if (current === null) return;
    onRunning(null);
    await current.stopWorkers();
  };

  return {
    running: () => running,
    async activate(services) {
      if (running === services) return;
      await deactivate();
      running = services;
      onRunning(services);
      services.startWorkers();
      await startWebhooks(services);
    },
    deactivate,
    forget() {
      running = null;
    },
    async webhookSettingsChanged() {
      const services = running;
      if (services === null) return;
      await services.detachWebhooks();
      await startWebhooks(services);
    },
  };
}
