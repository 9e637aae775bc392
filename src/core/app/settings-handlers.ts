// settings.* (language, theme, webhook tunnel and port). A new tunnel or port is checked before it is
// stored (an unusable choice is refused in words, not found later in a log) and replaces the running
// webhook side at once (app-service's webhookSettingsChanged, built by events/webhook-from-settings.ts).
// The ngrok authtoken is kept in the secret store beside the API key and, like it, never read back.
import { webhookFactoryFromSettings } from '../webhooks/webhook-from-settings';
import { NGROK_AUTHTOKEN_SECRET, saveNgrokAuthtoken } from '../webhooks/tunnels/ngrok-tunnel';
import { TunnelError } from '../webhooks/tunnels/tunnel';
import { TunnelSpecError } from '../webhooks/tunnels/tunnel-spec';
import { NO_DESKTOP } from '../../shared/ipc/views/settings';
import { readSettings, writeSettings } from './app-settings';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';
import type { HandlersFor } from './handler-types';

type Channels = 'settings.get' | 'settings.set' | 'settings.desktop' | 'settings.ngrokAuthtoken' | 'settings.saveNgrokAuthtoken';

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
          webhookFactoryFromSettings({ webhookTunnel: change.webhookTunnel, webhookPort: change.webhookPort ?? before.webhookPort });
        } catch (error) {
          if (!(error instanceof TunnelSpecError)) throw error;
          throw new AppFailure('INVALID_INPUT', error.message, [{ path: 'webhookTunnel', message: error.message }]);
        }
      }
      // A new webhook choice answers any notice about the old one.
      if (change.webhookTunnel !== undefined) next['webhookNotice'] = 'none';
      const saved = writeSettings(ctx.core.db, next, ctx.nowSeconds());
      if (saved.webhookTunnel !== before.webhookTunnel || saved.webhookPort !== before.webhookPort) await ctx.webhookSettingsChanged();
      return saved;
    },
    // Stored like the others here; applied by the desktop host, which says what it can apply (contract §17).
    'settings.desktop': () => ctx.host.desktop ?? NO_DESKTOP,
    'settings.ngrokAuthtoken': async () => ({ stored: ctx.secrets !== null && (await ctx.secrets.get(NGROK_AUTHTOKEN_SECRET)) !== null }),
    'settings.saveNgrokAuthtoken': async ({ authtoken }) => {
      if (ctx.secrets === null) throw new AppFailure('ACTION_NOT_ALLOWED', 'this app has no secret store to keep an ngrok authtoken in');
      ctx.logger.registerSecret(authtoken.trim());
      try {
        await saveNgrokAuthtoken(ctx.secrets, authtoken);
      } catch (error) {
        if (!(error instanceof TunnelError)) throw error;
        throw new AppFailure('INVALID_INPUT', error.message, [{ path: 'authtoken', message: error.message }]);
      }
      // A running ngrok tunnel that lacked (or had an old) token starts again with this one.
      if (readSettings(ctx.core.db).webhookTunnel.trim() === 'ngrok') await ctx.webhookSettingsChanged();
      return { stored: true };
    },
  };
}
