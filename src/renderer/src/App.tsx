// The app: first run (connect or demo) until a merchant is connected, then the main frame with the
// current screen and the drawers/modals that can open over any of them.
import { App as AntApp, Spin } from 'antd';
import { useCallback, useState } from 'react';
import { AppLayout } from './components/AppLayout';
import { AppProviders } from './components/AppProviders';
import { useAccount, useConnectionStatus } from './queries/connection';
import { useBridgeEvents } from './queries/use-bridge-events';
import { CatalogScreen } from './screens/CatalogScreen';
import { ConnectScreen } from './screens/ConnectScreen';
import { OrderDetailDrawer } from './screens/OrderDetailDrawer';
import { OrderFormModal } from './screens/OrderFormModal';
import { OrdersScreen } from './screens/OrdersScreen';
import { ProductDrawer } from './screens/ProductDrawer';
import { SettingsScreen } from './screens/SettingsScreen';
import { VaultScreen } from './screens/VaultScreen';
import { useUiStore } from './state/ui-store';
import { usePreferenceSync } from './state/use-preferences';

function Shell() {
  const { notification } = AntApp.useApp();
  const onNotification = useCallback(
    (title: string, body: string, kind: string) => {
      const type = kind === 'orderFailed' || kind === 'lowBalance' ? 'warning' : 'info';
      notification[type]({ title, description: body, placement: 'bottomRight' });
    },
    [notification],
  );
  useBridgeEvents(onNotification);
  usePreferenceSync();
  const connection = useConnectionStatus();
  const connected = connection.data?.connected === true;
  const account = useAccount(connected);
  const page = useUiStore((state) => state.page);
  const setPage = useUiStore((state) => state.setPage);
  // Shown while not connected, and kept after a successful connect until the buyer has seen the result.
  const [onboarding, setOnboarding] = useState(false);

  if (connection.isLoading) {
    return (
      <div className="app-loading">
        <Spin size="large" />
      </div>
    );
  }
  if (!connected || onboarding) {
    return (
      <ConnectScreen
        onDone={() => {
          setOnboarding(false);
          setPage('catalog');
        }}
        onStart={() => setOnboarding(true)}
      />
    );
  }
  return (
    <AppLayout connection={connection.data} account={account.data}>
      {page === 'catalog' ? <CatalogScreen /> : null}
      {page === 'orders' ? <OrdersScreen /> : null}
      {page === 'vault' ? <VaultScreen /> : null}
      {page === 'settings' ? <SettingsScreen onReconnect={() => setOnboarding(true)} /> : null}
      <ProductDrawer />
      <OrderFormModal />
      <OrderDetailDrawer />
    </AppLayout>
  );
}

export function App() {
  return (
    <AppProviders>
      <Shell />
    </AppProviders>
  );
}
