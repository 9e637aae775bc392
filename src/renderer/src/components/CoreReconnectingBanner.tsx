// Shown on every screen while the app's core is being restarted (its process died): nothing is lost —
// calls made now wait for it — and the screens reload their data by themselves once it is back.
import { Alert, Spin } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useCoreStateStore } from '../state/core-state-store';

export function CoreReconnectingBanner() {
  const { t } = useI18n();
  const reconnecting = useCoreStateStore((state) => state.reconnecting);
  if (!reconnecting) return null;
  return (
    <div data-testid="core-reconnecting" role="status" style={{ marginBottom: 16 }}>
      <Alert type="warning" showIcon icon={<Spin size="small" />} title={t('banner.coreReconnecting.title')} description={t('banner.coreReconnecting.body')} />
    </div>
  );
}
