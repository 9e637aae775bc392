// settings.* (language, theme, webhook tunnel and port) and events.health. The tunnel settings are
// stored here and read when the merchant services start (app-service's activate, through
// events/events-from-settings.ts); changing them takes effect on the next connection or app start.
import { readSettings, writeSettings } from './app-settings';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';

type Channels = 'settings.get' | 'settings.set';

export function settingsHandlers(ctx: AppContext): HandlersFor<Channels> {
  return {
    'settings.get': () => readSettings(ctx.core.db),
    'settings.set': (change) => {
      const next: Record<string, unknown> = {};
      // Only the keys given: a partial update never resets another setting to its default.
      for (const [key, value] of Object.entries(change)) if (value !== undefined) next[key] = value;
      return writeSettings(ctx.core.db, next, ctx.nowSeconds());
    },
  };
}
