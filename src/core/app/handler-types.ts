// The shape of a channel handler: the contract's parsed input in, the channel's output (or a promise
// of it) out. app-service.ts checks that every channel has exactly one.
import type { z } from 'zod';
import type { CHANNELS, ChannelName, ChannelOutput } from '../../shared/ipc/contract';

export type HandlerInput<C extends ChannelName> = z.output<(typeof CHANNELS)[C]['input']>;

export type ChannelHandlers = { [C in ChannelName]: (input: HandlerInput<C>) => Promise<ChannelOutput<C>> | ChannelOutput<C> };

export type HandlersFor<C extends ChannelName> = Pick<ChannelHandlers, C>;
