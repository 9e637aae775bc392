// The connection-wide state, as core's one connection state machine pushes it (connection.state),
// explained on every screen with what to do about it: each state has its own words and its action
// (replace the key, contact the merchant, trust a certificate authority, wait for the retry). A wait
// the merchant asked for is counted down each second and, once over, said to be happening now: a
// retry time is never shown after it has passed. A merchant that is only slow gets its own words.
import { Alert, Button, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { ConnectionStateName, ConnectionStateView } from '../../../shared/ipc/views/connection';
import { useI18n, type I18n } from '../i18n/use-i18n';
import { formatSeconds } from '../lib/format-time';
import { useNow } from '../lib/use-now';
import { timeLeft } from '../lib/wait-words';
import { WithMerchantData } from './MerchantText';
import { keys } from '../queries/keys';
import { shownState, useConnectionStateStore } from '../state/connection-state-store';
import { useUiStore } from '../state/ui-store';

/** States whose remedy is in Settings (a new key, a certificate authority, a connection). */
const SETTINGS_STATES: ReadonlySet<ConnectionStateName> = new Set(['keyRefused', 'certificate', 'notConnected']);
/** The merchant is there and the app retries by itself: a warning, not an error. */
const WARNING_STATES: ReadonlySet<ConnectionStateName> = new Set(['degraded', 'offline']);

/** The lines under the title: what happened and what to do, for this state and its details. `nowMs`: this computer's time. */
function bodyLines({ t, td }: I18n, state: ConnectionStateName, view: ConnectionStateView | null, browserOffline: boolean, nowMs: number): string[] {
  switch (state) {
    case 'degraded': {
      // Tenths below ten seconds: a 2.6 s answer past the 2.5 s threshold is not "2 s or more".
      if (view !== null && view.slowMs !== null) return [t('connState.degraded.slowBody', { seconds: view.slowMs < 10_000 ? Math.floor(view.slowMs / 100) / 10 : Math.floor(view.slowMs / 1000) })];
      const retryAtMs = view?.retryAtMs ?? null;
      if (retryAtMs === null) return [t('connState.degraded.body'), t('connState.degraded.retrying')];
      const left = timeLeft(retryAtMs, nowMs, t);
      return [t('connState.degraded.body'), left === null ? t('connState.degraded.retryingNow') : t('connState.degraded.retryIn', { wait: left })];
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
  // A merchant's Retry-After is counted down: the time is re-read every second while one is known.
  const nowMs = useNow(view?.retryAtMs !== null && view?.retryAtMs !== undefined ? 1_000 : null);
  const state = shownState({ view, browserOffline });
  if (state === null || state === 'online') return null;
  if (state === 'degraded' && dismissedSince !== null && dismissedSince === view?.since) return null;
  const slow = state === 'degraded' && !browserOffline && view !== null && view.slowMs !== null;
  const details: string[] = [];
  if (!browserOffline && view !== null) {
    if (view.merchantCode !== null) details.push(t('problem.merchantCode', { code: view.merchantCode }));
    if (view.requestId !== null && view.httpStatus !== null) details.push(t('common.requestId', { id: view.requestId }));
    if (view.lastSuccessAt !== null) details.push(t('connState.lastSuccess', { time: formatSeconds(view.lastSuccessAt, locale) }));
  }
  return (
    <div data-testid="status-banner" data-state={state} data-slow={slow ? 'true' : 'false'} style={{ marginBottom: 16 }}>
      <Alert
        data-testid="status-banner-alert"
        type={WARNING_STATES.has(state) ? 'warning' : 'error'}
        showIcon
        title={slow ? t('connState.degraded.slowTitle') : td(`connState.${state}.title`, 'connState.offline.title')}
        description={
          <>
            {bodyLines(i18n, state, view, browserOffline, nowMs).map((line) => (
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
