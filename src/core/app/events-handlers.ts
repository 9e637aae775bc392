// events.health: the webhook side's health when the host runs it, otherwise "polling only" with the
// tunnel the settings name (so the UI can say what would be used).
import type { EventsHealthView } from '../../shared/ipc/views';
import { readSettings } from './app-settings';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';
import { pollingOnlyHealth, toEventsHealthView } from './view-mapping';

export function eventsHealthView(ctx: AppContext): EventsHealthView {
  const events = ctx.activeServices()?.events ?? null;
  if (events !== null) return toEventsHealthView(events.health());
  const tunnel = readSettings(ctx.core.db).webhookTunnel;
  return pollingOnlyHealth(tunnel === 'off' ? null : tunnel);
}

export function eventsHandlers(ctx: AppContext): HandlersFor<'events.health'> {
  return { 'events.health': () => eventsHealthView(ctx) };
}
