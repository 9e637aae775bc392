// settings.* (language, theme, webhook tunnel and port). A new tunnel or port is checked before it is
// stored (an unusable choice is refused in words, not found later in a log) and replaces the running
// webhook side at once (app-service's webhookSettingsChanged, built by events/events-from-settings.ts).
import { eventsFactoryFromSettings } from '../events/events-from-settings';
import { TunnelSpecError } from '../events/tunnels/tunnel-spec';
import { readSettings, writeSettings } from './app-settings';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';
import type { HandlersFor } from './handler-types';

type Channels = 'settings.get' | 'settings.set';

export function settingsHandlers(ctx: AppContext): HandlersFor<Channels> {
  return {
    'settings.get': () => readSettings(ctx.core.db),
    'settings.set': async (change) => {
      const next: Record<string, unknown> = {};
      // Only the keys given: a partial update never resets another setting to its default.
      for (const [key, value] of Object.entries(change)) if (value !== undefined) next[key] = value;
      const before = readSettings(ctx.core.db);
      if (change.webhookTunnel !== undefined) {
        try {
          eventsFactoryFromSettings({ webhookTunnel: change.webhookTunnel, webhookPort: change.webhookPort ?? before.webhookPort });
        } catch (error) {
          if (!(error instanceof TunnelSpecError)) throw error;
          throw new AppFailure('INVALID_INPUT', error.message, [{ path: 'webhookTunnel', message: error.message }]);
        }
      }
      const saved = writeSettings(ctx.core.db, next, ctx.nowSeconds());
      if (saved.webhookTunnel !== before.webhookTunnel || saved.webhookPort !== before.webhookPort) await ctx.webhookSettingsChanged();
      return saved;
    },
  };
}
