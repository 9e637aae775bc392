// Main pushes what changed; the cache follows. Catalog changes during a sync can come by the
// thousand, so their invalidations are coalesced.
import type { NotificationView } from '../../../shared/ipc/views/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../bridge';
import { useCoreStateStore } from '../state/core-state-store';
import { useConnectionStateStore } from '../state/connection-state-store';
import { useUiStore } from '../state/ui-store';
import { aftersaleKeys } from './aftersales';
import { keys } from './keys';
import { spendKeys } from './books';
import { onProfilesChanged, profileKeys } from './profiles';
import { useLowBalanceStore } from '../state/low-balance-store';
import type { ProfileList } from '../../../shared/ipc/views/profiles';
import { goTo } from '../lib/app-route';

const CATALOG_COALESCE_MS = 750;

/** Asks core for the connection state (a push may have gone out before this tab listened). */
function readConnectionState(): void {
  api.connection.state().then(
    (view) => useConnectionStateStore.getState().set(view),
    () => undefined,
  );
}

export function useBridgeEvents(onNotification: (note: NotificationView) => void): void {
  const client = useQueryClient();
  useEffect(() => {
    let catalogTimer: ReturnType<typeof setTimeout> | null = null;
    const invalidateCatalog = (): void => {
      if (catalogTimer !== null) return;
      catalogTimer = setTimeout(() => {
        catalogTimer = null;
        void client.invalidateQueries({ queryKey: keys.catalog });
      }, CATALOG_COALESCE_MS);
    };
    const offs = [
      api.orders.onChanged(() => {
        void client.invalidateQueries({ queryKey: keys.orders });
        void client.invalidateQueries({ queryKey: keys.vault });
      }),
      api.catalog.onChanged(invalidateCatalog),
      api.aftersales.onChanged(() => void client.invalidateQueries({ queryKey: aftersaleKeys.all })),
      api.vault.onChanged(() => void client.invalidateQueries({ queryKey: keys.vault })),
      api.catalog.onSyncProgress((progress) => {
        useUiStore.getState().setSyncProgress(progress);
        // A phase finished, or the run ended (done, failed, stopped: no phase index): the status changed.
        if (progress.phaseIndex === null || (progress.total !== null && progress.done >= progress.total)) invalidateCatalog();
      }),
      api.account.onChanged((account) => {
        client.setQueryData(keys.account, account);
        // In core's order, after the crossing it may lower: a low-balance banner follows this balance.
        useLowBalanceStore.getState().balanceSeen(account.balanceFen, client.getQueryData<ProfileList>(profileKeys.list)?.activeId ?? null);
        // The balance chart draws the balance history this answer just extended.
        void client.invalidateQueries({ queryKey: spendKeys.all });
      }),
      // The one connection state machine's transitions (core/connection/connection-state.ts).
      api.connection.onState((view) => useConnectionStateStore.getState().set(view)),
      api.connection.onChanged((status) => {
        readConnectionState();
        client.setQueryData(keys.connection, status);
        void client.invalidateQueries({ queryKey: keys.account });
        void client.invalidateQueries({ queryKey: keys.catalog });
        void client.invalidateQueries({ queryKey: keys.orders });
        void client.invalidateQueries({ queryKey: aftersaleKeys.all });
        void client.invalidateQueries({ queryKey: keys.eventsHealth });
      }),
      api.events.onHealth((health) => client.setQueryData(keys.eventsHealth, health)),
      // The core process is back after a restart: every screen reloads its data (no page reload). A
      // sync the old process was running is gone with it; a new one reports its own progress.
      api.core.onState(({ state }) => {
        if (!useCoreStateStore.getState().setState(state)) return;
        readConnectionState();
        useUiStore.getState().setSyncProgress(null);
        void client.invalidateQueries();
      }),
      api.app.onNotification(onNotification),
      // Desktop: a clicked notification opens what it is about (contract §17.4).
      api.app.onNavigate((route) => goTo(route, client.getQueryData<ProfileList>(profileKeys.list)?.activeId ?? null)),
      // Profiles added, renamed, removed, switched, or one's own connection state moved.
      api.profiles.onChanged((list) => onProfilesChanged(client, list)),
    ];
    // The state as it is now: pushes only tell transitions, and this tab may have opened after one.
    readConnectionState();
    const online = (): void => useConnectionStateStore.getState().setBrowserOffline(false);
    const offline = (): void => useConnectionStateStore.getState().setBrowserOffline(true);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      for (const off of offs) off();
      if (catalogTimer !== null) clearTimeout(catalogTimer);
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }, [client, onNotification]);
}
