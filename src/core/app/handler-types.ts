// The shape of a channel handler: the contract's parsed input in, the channel's output (or a promise
// of it) out. app-service.ts checks that every channel has exactly one.
import type { z } from 'zod';
import type { CHANNELS, ChannelName, ChannelOutput } from '../../shared/ipc/contract';

export type HandlerInput<C extends ChannelName> = z.output<(typeof CHANNELS)[C]['input']>;

export type ChannelHandlers = { [C in ChannelName]: (input: HandlerInput<C>) => Promise<ChannelOutput<C>> | ChannelOutput<C> };

export type HandlersFor<C extends ChannelName> = Pick<ChannelHandlers, C>;

/** Channels the desk answers above the profiles (desk-handlers.ts): a profile's own service has none of them. */
export type DeskOnlyChannel =
  | 'profiles.list'
  | 'profiles.add'
  | 'profiles.rename'
  | 'profiles.switch'
  | 'profiles.work'
  | 'profiles.remove'
  | 'catalog.compare'
  | 'links.list'
  | 'links.link'
  | 'links.unlink'
  | 'links.forVariant'
  | 'links.setRule'
  | 'orders.offers';

/** One profile's app service: every channel but the desk's. */
export type ProfileChannelHandlers = Omit<ChannelHandlers, DeskOnlyChannel>;
