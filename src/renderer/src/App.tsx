// The app: first run (connect or demo) until a merchant is connected, then the main frame with the
// current screen and the drawers/modals that can open over any of them; before all that, in the desktop
// app, the unlock step when secrets are kept in the passphrase file.
import { App as AntApp, Spin } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AppLayout } from './components/AppLayout';
import { AppProviders } from './components/AppProviders';
import { useAccount, useConnectionStatus } from './queries/connection';
import { useBridgeEvents } from './queries/use-bridge-events';
import { CatalogScreen } from './screens/CatalogScreen';
import { CompareScreen } from './screens/CompareScreen';
import { ConnectScreen } from './screens/ConnectScreen';
import { OrderDetailDrawer } from './screens/OrderDetailDrawer';
import { OrderFormModal } from './screens/OrderFormModal';
import { BatchFileModal } from './screens/BatchFileModal';
import { OrdersScreen } from './screens/OrdersScreen';
import { ProductDrawer } from './screens/ProductDrawer';
import { SettingsScreen } from './screens/SettingsScreen';
import { AuditLogScreen } from './screens/AuditLogScreen';
import { AftersalesScreen } from './screens/AftersalesScreen';
import { CaseChatDrawer } from './screens/CaseChatDrawer';
import { OpenCaseModal } from './screens/OpenCaseModal';
import { UnlockGate } from './screens/UnlockScreen';
import { VaultScreen } from './screens/VaultScreen';
import { ReconcileScreen } from './screens/ReconcileScreen';
import { DashboardScreen } from './screens/DashboardScreen';
import { useLowBalanceStore } from './state/low-balance-store';
import { useLocale } from './i18n/use-i18n';
import { WithMerchantData } from './components/MerchantText';
import { notificationText } from '../../shared/notification-text';
import type { NotificationView } from '../../shared/ipc/views/notifications';
import { useUiStore } from './state/ui-store';
import { usePreferenceSync } from './state/use-preferences';
import { useProfiles } from './queries/profiles';
import { showsMerchants } from './lib/merchant-column';
import { overlayOpen } from './lib/overlay-open';
import { ProfileNameDialog } from './components/ProfileNameDialog';
import { RemoveProfileDialog } from './components/RemoveProfileDialog';
import { NewMerchantBar } from './components/NewMerchantBar';

function Shell() {
  const { notification } = AntApp.useApp();
  const locale = useLocale();
  const profiles = useProfiles();
  // Read by the notification handler without resubscribing to every event when the list changes.
  const severalMerchants = useRef(false);
  useEffect(() => {
    severalMerchants.current = showsMerchants(profiles.data);
  }, [profiles.data]);
  const onNotification = useCallback(
    (note: NotificationView) => {
      // Worded here, in the buyer's language, from the facts the service pushed; the merchant named
      // only when there are several to tell apart.
      const merchant = severalMerchants.current ? note.merchant : undefined;
      const { title, body } = notificationText({ ...note, merchant }, locale);
      // A crossing of the buyer's low-balance line also raises the banner (until dismissed or topped up).
      if (note.kind === 'lowBalance' && note.balanceFen !== undefined) useLowBalanceStore.getState().crossed(note.balanceFen, note.merchant);
      const type = note.kind === 'orderFailed' || note.kind === 'lowBalance' ? 'warning' : 'info';
      // Under an open dialog (never over its buttons): kept until closed rather than fading unseen.
      const sticky = overlayOpen();
      notification[type]({ title: <WithMerchantData text={title} data={[merchant?.nameSource === 'fallback' ? null : merchant?.name]} />, description: <WithMerchantData text={body} data={[note.productName, note.platformOrderRef, note.platformCaseRef, note.preview]} />, placement: 'bottomRight', ...(sticky ? { duration: false } : {}), props: { 'data-testid': `notification-${note.kind}` } });
    },
    [notification, locale],
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
  // "Connect to another merchant" (Settings, after its confirmation): the form with a way back.
  const [switching, setSwitching] = useState(false);

  if (connection.isLoading) {
    return (
      <div className="app-loading">
        <Spin size="large" />
      </div>
    );
  }
  if (!connected || onboarding || switching) {
    const back = (): void => {
      setOnboarding(false);
      setSwitching(false);
    };
    return (
      <>
        {!connected ? <NewMerchantBar /> : null}
      <ConnectScreen
        onDone={() => {
          back();
          setPage('catalog');
        }}
        onStart={() => setOnboarding(true)}
        // The demo's address is a local sandbox's of this run: not worth prefilling.
        {...(switching && connected ? { onCancel: back, initialBaseUrl: connection.data?.demo === true ? '' : (connection.data?.baseUrl ?? '') } : {})}
      />
      </>
    );
  }
  return (
    <AppLayout connection={connection.data} account={account.data}>
      {page === 'catalog' ? <CatalogScreen /> : null}
      {page === 'compare' ? <CompareScreen /> : null}
      {page === 'orders' ? <OrdersScreen /> : null}
      {page === 'dashboard' ? <DashboardScreen /> : null}
      {page === 'aftersales' ? <AftersalesScreen /> : null}
      {page === 'vault' ? <VaultScreen /> : null}
      {page === 'audit' ? <AuditLogScreen /> : null}
      {page === 'reconcile' ? <ReconcileScreen /> : null}
      {page === 'settings' ? <SettingsScreen onReconnect={() => setSwitching(true)} /> : null}
      <ProductDrawer />
      <OrderFormModal />
      <BatchFileModal />
      <OrderDetailDrawer />
      <OpenCaseModal />
      <CaseChatDrawer />
      <ProfileNameDialog />
      <RemoveProfileDialog />
    </AppLayout>
  );
}

export function App() {
  return (
    <AppProviders>
      <UnlockGate>
        <Shell />
      </UnlockGate>
    </AppProviders>
  );
}
