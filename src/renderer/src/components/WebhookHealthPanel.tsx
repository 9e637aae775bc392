// The health of how orders are updated, in words per mode. Polling is a normal mode (orders are
// checked by polling), never shown as a receiver "down". With webhooks: whether they are arriving,
// the receiver and the tunnel (its kind and state), the callback address, and the last webhook
// received beside the count of them (both from the same events, since the receiver started), and how
// many open orders go on by polling because they were placed with an earlier callback address.
import { Alert, Badge, Descriptions } from 'antd';
import type { WebhookHealthView } from '../../../shared/ipc/views/webhooks';
import { useI18n } from '../i18n/use-i18n';
import { choiceFromTunnel } from '../lib/webhook-path';
import { formatSeconds } from '../lib/format-time';

export function WebhookHealthPanel({ health: h }: { health: WebhookHealthView }) {
  const { t, locale } = useI18n();
  const upBadge = (up: boolean) => <Badge status={up ? 'success' : 'error'} text={up ? t('settings.up') : t('settings.down')} />;
  if (h.mode === 'polling') {
    return (
      <Descriptions title={t('settings.health')} column={1} size="small" bordered data-testid="events-health" data-mode="polling">
        <Descriptions.Item label={t('health.mode')}>
          <Badge status="success" text={t('health.mode.polling')} data-testid="events-health-mode" />
          <div style={{ marginTop: 4, opacity: 0.75 }}>{t('health.mode.pollingHint')}</div>
        </Descriptions.Item>
      </Descriptions>
    );
  }
  const tunnelName = h.tunnelKind === null ? t('common.none') : t(`settings.tunnel.${choiceFromTunnel(h.tunnelKind).path}`);
  return (
    <>
      <Descriptions title={t('settings.health')} column={1} size="small" bordered data-testid="events-health" data-mode="webhooks">
        <Descriptions.Item label={t('health.mode')}>
          <Badge
            status={h.webhooksLive ? 'success' : 'processing'}
            text={h.webhooksLive ? t('health.mode.webhooksLive') : t('health.mode.webhooksWaiting')}
            data-testid="events-health-mode"
          />
        </Descriptions.Item>
        <Descriptions.Item label={t('settings.receiver')}>{upBadge(h.receiverUp)}</Descriptions.Item>
        <Descriptions.Item label={t('settings.tunnelState')}>
          {tunnelName} · {upBadge(h.tunnelUp)}
        </Descriptions.Item>
        <Descriptions.Item label={t('settings.callbackUrl')}>{h.callbackUrl ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('health.lastReceived')}>
          <span data-testid="events-health-last">{h.lastEventAt === null ? t('health.noneReceived') : formatSeconds(h.lastEventAt, locale)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="">{t('settings.counts', { received: h.received, duplicates: h.duplicates, rejected: h.rejected })}</Descriptions.Item>
      </Descriptions>
      {h.ordersPolledElsewhere > 0 ? <Alert type="info" showIcon data-testid="events-health-elsewhere" title={t('health.oldCallback', { count: h.ordersPolledElsewhere })} /> : null}
    </>
  );
}
