// connection.* (connection.state: the one connection state machine's view) and account.get. The key goes one way only: it is tested at once (GET /account),
// stored in the secret store, and never answered, pushed or logged back.
import { AppFailure } from './error-mapping';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';

type Channels = 'connection.status' | 'connection.state' | 'connection.watch' | 'connection.connect' | 'connection.startDemo' | 'connection.replaceKey' | 'connection.setCaCert' | 'connection.clearKey' | 'account.get';

export function connectionHandlers(ctx: AppContext): HandlersFor<Channels> {
  return {
    'connection.status': () => ctx.connectionStatus(),

    'connection.state': () => ctx.connectionState(),

    // The window renews this while it is visible; the running connection's health watch then asks the
    // merchant whenever nothing else did for a moment (connection/health-watch.ts).
    'connection.watch': () => {
      ctx.activeServices()?.health.watch();
      return ctx.connectionState();
    },

    'connection.connect': (input) => ctx.connect(input, false),

    'connection.startDemo': async () => {
      const demo = await ctx.host.startDemoMerchant();
      return ctx.connect({ baseUrl: demo.baseUrl, userId: demo.userId, apiKey: demo.apiKey, caCertPem: demo.caCertPem }, true);
    },

    'connection.replaceKey': async ({ apiKey }) => {
      const settings = ctx.core.connection();
      if (settings === null) throw new AppFailure('NOT_CONNECTED', 'no merchant is set up yet: connect first');
      const status = await ctx.connectionStatus();
      return ctx.connect({ baseUrl: settings.baseUrl, userId: settings.userId, caCertPem: settings.caCertPem, apiKey }, status.demo);
    },

    // The same merchant, key and user with another CA: tested like a connect, nothing changed if it fails.
    'connection.setCaCert': async ({ caCertPem }) => {
      const settings = ctx.core.connection();
      const apiKey = await ctx.core.storedApiKey();
      if (settings === null || apiKey === null) throw new AppFailure('NOT_CONNECTED', 'no merchant is set up yet: connect first');
      const status = await ctx.connectionStatus();
      return ctx.connect({ baseUrl: settings.baseUrl, userId: settings.userId, caCertPem, apiKey }, status.demo);
    },

    'connection.clearKey': () => ctx.disconnect(),

    'account.get': async () => {
      const services = await ctx.merchant();
      const { data } = await services.client.getAccount();
      return ctx.accountSeen(data);
    },
  };
}
