// The wire names of the contract's channels and events. Shared by main and the preload so that the
// two sides cannot drift; the prefixes keep the app's messages apart from anything else on IPC.
import type { ChannelName, EventName } from './contract';

export const CHANNEL_PREFIX = 'pd:';
export const EVENT_PREFIX = 'pd-event:';

export function ipcChannelName(channel: ChannelName): string {
  return `${CHANNEL_PREFIX}${channel}`;
}

export function ipcEventName(event: EventName): string {
  return `${EVENT_PREFIX}${event}`;
}
