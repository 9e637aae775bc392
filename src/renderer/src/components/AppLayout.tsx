// The frame: a sider menu (catalog, compare, orders, spend, vault, reconciliation, settings), a header with
// the merchant switcher, balance, the active merchant's connection state and the language switch, the status and low-balance banners, and the current screen.
import { AppstoreOutlined, AuditOutlined, BarChartOutlined, CustomerServiceOutlined, FileTextOutlined, LockOutlined, ReconciliationOutlined, SettingOutlined, SwapOutlined } from '@ant-design/icons';
import { Badge, Layout, Menu, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n';
import type { AccountView, ConnectionStatus } from '../../../shared/ipc/views/connection';
import { useShownConnectionState } from '../state/connection-state-store';
import { useConnectionWatch } from '../queries/use-connection-watch';
import { useCoreStateStore } from '../state/core-state-store';
import { useUiStore, type Page } from '../state/ui-store';
import { AccessStateTag } from './AccountSummary';
import { headerShowsAccessTag } from '../lib/header-access';
import { HeaderBalance } from './HeaderBalance';
import { LanguageSwitch } from './LanguageSwitch';
import { NavUnreadBadge } from './NavUnreadBadge';
import { CoreReconnectingBanner } from './CoreReconnectingBanner';
import { StatusBanner } from './StatusBanner';
import { LowBalanceBanner } from './LowBalanceBanner';
import { BADGE_OF_STATE, ProfileSwitcher } from './ProfileSwitcher';

const PAGES: readonly { key: Page; icon: ReactNode }[] = [
  { key: 'catalog', icon: <AppstoreOutlined /> },
  { key: 'compare', icon: <SwapOutlined /> },
  { key: 'orders', icon: <FileTextOutlined /> },
  { key: 'dashboard', icon: <BarChartOutlined /> },
  { key: 'aftersales', icon: <CustomerServiceOutlined /> },
  { key: 'vault', icon: <LockOutlined /> },
  { key: 'audit', icon: <AuditOutlined /> },
  { key: 'reconcile', icon: <ReconciliationOutlined /> },
  { key: 'settings', icon: <SettingOutlined /> },
];

export function AppLayout({ connection, account, children }: { connection: ConnectionStatus | undefined; account: AccountView | undefined; children: ReactNode }) {
  const { t } = useI18n();
  const page = useUiStore((state) => state.page);
  const setPage = useUiStore((state) => state.setPage);
  const connectionState = useShownConnectionState();
  // The header is on screen: core keeps the merchant checked so that it tells the truth within seconds.
  useConnectionWatch();
  // While the app's own core restarts, nothing it last said about the merchant is current.
  const coreReconnecting = useCoreStateStore((state) => state.reconnecting);
  return (
    <Layout className="app-layout">
      <Layout.Sider breakpoint="lg" collapsedWidth={64} width={208} theme="dark" className="app-sider">
        <div className="app-logo">
          <span className="app-logo-mark">采</span>
          <span className="app-logo-text">{t('app.name')}</span>
        </div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[page]}
          onClick={(item) => setPage(item.key as Page)}
          items={PAGES.map((entry) => ({ key: entry.key, icon: entry.icon, label: (
            <>
              <span data-testid={`nav-${entry.key}`}>{t(`nav.${entry.key}`)}</span>
              {entry.key === 'aftersales' ? <NavUnreadBadge /> : null}
            </>
          ),
          }))}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="app-header">
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t(`nav.${page}`)}
          </Typography.Title>
          <Space size="middle">
            <ProfileSwitcher />
            {connection?.demo === true ? <Tag color="purple">{t('header.demo')}</Tag> : null}
            {account !== undefined ? (
              <Space size="small">
                <Typography.Text type="secondary">{t('header.balance')}</Typography.Text>
                <HeaderBalance account={account} />
                {headerShowsAccessTag(account.accessState, connectionState, coreReconnecting) ? <AccessStateTag accessState={account.accessState} /> : null}
              </Space>
            ) : null}
            {coreReconnecting ? (
              <span data-testid="online-indicator" data-state="coreReconnecting" data-online="false">
                <Badge status="processing" text={t('connState.header.coreReconnecting')} />
              </span>
            ) : connectionState !== null ? (
              <span data-testid="online-indicator" data-state={connectionState} data-online={connectionState === 'online' ? 'true' : 'false'}>
                <Badge status={BADGE_OF_STATE[connectionState]} text={t(`connState.header.${connectionState}`)} />
              </span>
            ) : null}
            <LanguageSwitch />
          </Space>
        </Layout.Header>
        <Layout.Content className="app-content">
          <CoreReconnectingBanner />
          <StatusBanner />
          <LowBalanceBanner />
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
