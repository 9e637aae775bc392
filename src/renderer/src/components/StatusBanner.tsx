// The connection-wide state, as core's one connection state machine pushes it (connection.state),
// explained on every screen with what to do about it: each state has its own words and its action
// (replace the key, contact the merchant, trust a certificate authority, wait for the retry).
import { Alert, Button, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { ConnectionStateName, ConnectionStateView } from '../../../shared/ipc/views/connection';
import { useI18n, type I18n } from '../i18n/use-i18n';
import { WithMerchantData } from './MerchantText';
import { keys } from '../queries/keys';
import { shownState, useConnectionStateStore } from '../state/connection-state-store';
import { useUiStore } from '../state/ui-store';

/** States whose remedy is in Settings (a new key, a certificate authority, a connection). */
const SETTINGS_STATES: ReadonlySet<ConnectionStateName> = new Set(['keyRefused', 'certificate', 'notConnected']);
/** The merchant is there and the app retries by itself: a warning, not an error. */
const WARNING_STATES: ReadonlySet<ConnectionStateName> = new Set(['degraded', 'offline']);

function formatTime(locale: string, ms: number): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(ms));
}

/** The lines under the title: what happened and what to do, for this state and its details. */
function bodyLines({ t, td, locale }: I18n, state: ConnectionStateName, view: ConnectionStateView | null, browserOffline: boolean): string[] {
  switch (state) {
    case 'degraded': {
      const retryAtMs = view?.retryAtMs ?? null;
      return [t('connState.degraded.body'), retryAtMs !== null && retryAtMs > Date.now() ? t('connState.degraded.retryAt', { time: formatTime(locale, retryAtMs) }) : t('connState.degraded.retrying')];
    }
    case 'certificate':
      return [td(`connState.certificate.${view?.transportReason ?? 'tlsOther'}`, 'connState.certificate.tlsOther'), t('connState.certificate.footer')];
    case 'offline': {
      const reason = browserOffline ? t('connState.offline.browser') : view?.transportReason ? td(`connState.offline.reason.${view.transportReason}`, 'connState.offline.body') : null;
      return reason === null || reason === t('connState.offline.body') ? [t('connState.offline.body')] : [reason, t('connState.offline.body')];
    }
    default:
      return [td(`connState.${state}.body`, 'connState.offline.body')];
  }
}

export function StatusBanner() {
  const i18n = useI18n();
  const { t, td, locale } = i18n;
  const client = useQueryClient();
  const view = useConnectionStateStore((store) => store.view);
  const browserOffline = useConnectionStateStore((store) => store.browserOffline);
  const dismissedSince = useConnectionStateStore((store) => store.dismissedSince);
  const setPage = useUiStore((store) => store.setPage);
  const state = shownState({ view, browserOffline });
  if (state === null || state === 'online') return null;
  if (state === 'degraded' && dismissedSince !== null && dismissedSince === view?.since) return null;
  const details: string[] = [];
  if (!browserOffline && view !== null) {
    if (view.merchantCode !== null) details.push(t('problem.merchantCode', { code: view.merchantCode }));
    if (view.requestId !== null && view.httpStatus !== null) details.push(t('common.requestId', { id: view.requestId }));
    if (view.lastSuccessAt !== null) details.push(t('connState.lastSuccess', { time: formatTime(locale, view.lastSuccessAt * 1000) }));
  }
  return (
    <div data-testid="status-banner" data-state={state} style={{ marginBottom: 16 }}>
      <Alert
        data-testid="status-banner-alert"
        type={WARNING_STATES.has(state) ? 'warning' : 'error'}
        showIcon
        title={td(`connState.${state}.title`, 'connState.offline.title')}
        description={
          <>
            {bodyLines(i18n, state, view, browserOffline).map((line) => (
              <div key={line}>{line}</div>
            ))}
            {details.length > 0 ? (
              <div>
                <Typography.Text type="secondary">
                  <WithMerchantData text={details.join(' · ')} data={[view?.requestId]} />
                </Typography.Text>
              </div>
            ) : null}
          </>
        }
        action={
          <Space orientation="vertical">
            {SETTINGS_STATES.has(state) ? (
              <Button size="small" type="primary" data-testid="status-banner-settings" onClick={() => setPage('settings')}>
                {state === 'keyRefused' ? t('connState.keyRefused.action') : t('connState.openSettings')}
              </Button>
            ) : null}
            <Button size="small" onClick={() => void client.invalidateQueries({ queryKey: keys.account })}>
              {t('banner.retryNow')}
            </Button>
            {state === 'degraded' ? (
              <Button size="small" type="text" onClick={() => useConnectionStateStore.getState().dismiss()}>
                {t('banner.dismiss')}
              </Button>
            ) : null}
          </Space>
        }
      />
    </div>
  );
}
