// events.health: the webhook side's health when the host runs it, otherwise "polling only" with the
// tunnel the settings name (so the UI can say what would be used).
import type { WebhookHealthView } from '../../shared/ipc/views/webhooks';
import { readSettings } from './app-settings';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';
import { pollingOnlyHealth, toWebhookHealthView } from './view-mapping';
import type { Database } from 'better-sqlite3';
import { createCallbackReach, type CallbackReach } from '../orders/callback-reach';
import type { WebhookHealth } from '../webhooks/webhook-health';

/** The URL new orders get now: none while the merchant refuses it. */
const usableCallbackUrl = (health: WebhookHealth): string | null => (health.callbackUrlRefused ? null : health.callbackUrl);

/** One set of prepared statements per database (the health view is read every few seconds). */
const reaches = new WeakMap<Database, CallbackReach>();
function reachOf(db: Database): CallbackReach {
  const known = reaches.get(db);
  if (known !== undefined) return known;
  const made = createCallbackReach(db);
  reaches.set(db, made);
  return made;
}

export function webhookHealthView(ctx: AppContext): WebhookHealthView {
  const webhooks = ctx.activeServices()?.webhooks ?? null;
  if (webhooks !== null) {
    const health = webhooks.health();
    return toWebhookHealthView(health, reachOf(ctx.core.db).elsewhere(usableCallbackUrl(health)));
  }
  const tunnel = readSettings(ctx.core.db).webhookTunnel;
  return pollingOnlyHealth(tunnel === 'off' ? null : tunnel);
}

export function webhookHandlers(ctx: AppContext): HandlersFor<'events.health'> {
  return { 'events.health': () => webhookHealthView(ctx) };
}
