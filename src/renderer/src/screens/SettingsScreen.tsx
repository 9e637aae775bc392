// Settings: the merchants (profiles: switch, add, rename, remove), the active one's connection (the key is write-only: replace or clear, never shown), how order
// updates arrive (webhooks through a tunnel, or polling) and their health, the low-balance notice,
// language and theme, and running in the background (close to tray, start at login; desktop app).
import { PassphraseFileAction } from '../components/PassphraseFileDialog';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Popconfirm, Radio, Select, Space, Typography } from 'antd';
import { App } from 'antd';
import { useEffect, useState } from 'react';
import { AccountSummary } from '../components/AccountSummary';
import { ProblemAlert } from '../components/ProblemAlert';
import { TrustedCaActions, TrustedCaSummary } from '../components/TrustedCaSetting';
import { WriteOnlySecretField } from '../components/WriteOnlySecretField';
import { useI18n } from '../i18n/use-i18n';
import type { LanguagePreference } from '../i18n/locale';
import { explainError } from '../lib/explain-error';
import { choiceFromTunnel, tunnelFromChoice, WEBHOOK_PATHS, type WebhookChoice, type WebhookPath } from '../lib/webhook-path';
import { useAccount, useClearKey, useConnectionStatus, useReplaceKey } from '../queries/connection';
import { WebhookHealthPanel } from '../components/WebhookHealthPanel';
import { LowBalanceSetting } from '../components/LowBalanceSetting';
import { MerchantsCard } from '../components/MerchantsCard';
import { BackgroundSettings } from '../components/BackgroundSettings';
import { useEventsHealth, useNgrokAuthtoken, useSaveNgrokAuthtoken, useSetSettings, useSettings } from '../queries/settings';
import { useUiStore, type ThemePreference } from '../state/ui-store';
import { useChangePreferences } from '../state/use-preferences';

function ConnectionCard({ onReconnect }: { onReconnect: () => void }) {
  const { t, td } = useI18n();
  const { message } = App.useApp();
  const status = useConnectionStatus();
  const account = useAccount(status.data?.connected === true);
  const replace = useReplaceKey();
  const clear = useClearKey();
  const data = status.data;
  const failure = replace.error ?? clear.error;
  return (
    <Card title={t('settings.connection')} data-testid="settings-connection">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {data !== undefined ? (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('settings.merchant')}>{data.demo ? t('header.demo') : (data.baseUrl ?? '—')}</Descriptions.Item>
            <Descriptions.Item label={t('settings.caCert')}>
              <Space orientation="vertical" size="small">
                <TrustedCaSummary status={data} />
                <TrustedCaActions status={data} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('settings.userId')}>
              <span data-testid="settings-user-id">{data.userId ?? '—'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('settings.key')}>
              <span data-testid="settings-key-state">
                {data.keyStored ? t('settings.keyStored', { store: td(`settings.secretStore.${data.secretStore}`, 'common.unknown') }) : t('settings.keyMissing')}
              </span>{' '}
              <PassphraseFileAction />
            </Descriptions.Item>
          </Descriptions>
        ) : null}
        {account.data !== undefined ? <AccountSummary account={account.data} /> : null}
        {failure !== null ? <ProblemAlert explained={explainError(failure)} /> : null}
        <WriteOnlySecretField
          testId="settings-new-key"
          placeholder={t('settings.newKey')}
          buttonLabel={t('settings.replaceKey')}
          primary
          saving={replace.isPending}
          onSave={(key, done) =>
            replace.mutate(key, {
              onSuccess: () => {
                done();
                void message.success(t('settings.keyReplaced'));
              },
            })
          }
        />
        <Space wrap>
          <Popconfirm
            title={t('settings.clearKeyConfirm')}
            okButtonProps={{ danger: true, 'data-testid': 'settings-clear-key-confirm' }}
            onConfirm={() => clear.mutate(undefined, { onSuccess: () => void message.success(t('settings.keyCleared')) })}
          >
            <Button danger data-testid="settings-clear-key" disabled={data?.keyStored !== true} loading={clear.isPending}>
              {t('settings.clearKey')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('settings.reconnectConfirmTitle')}
            description={<div style={{ maxWidth: 420 }}>{t('settings.reconnectConfirmBody')}</div>}
            okText={t('settings.reconnectConfirmOk')}
            cancelText={t('connect.cancel')}
            okButtonProps={{ 'data-testid': 'settings-reconnect-confirm' }}
            cancelButtonProps={{ 'data-testid': 'settings-reconnect-cancel' }}
            onConfirm={onReconnect}
          >
            <Button data-testid="settings-reconnect">{t('settings.reconnect')}</Button>
          </Popconfirm>
        </Space>
      </Space>
    </Card>
  );
}

function NgrokAuthtokenField() {
  const { t } = useI18n();
  const { message } = App.useApp();
  const status = useNgrokAuthtoken();
  const save = useSaveNgrokAuthtoken();
  return (
    <Form.Item label={t('settings.ngrokAuthtoken')} extra={status.data?.stored === true ? t('settings.ngrokAuthtokenStored') : t('settings.ngrokAuthtokenMissing')}>
      <WriteOnlySecretField
        testId="settings-ngrok-authtoken"
        buttonLabel={t('common.save')}
        saving={save.isPending}
        onSave={(token, done) =>
          save.mutate(token, {
            onSuccess: () => {
              done();
              void message.success(t('settings.saved'));
            },
          })
        }
      />
      {save.error !== null ? <ProblemAlert explained={explainError(save.error)} /> : null}
    </Form.Item>
  );
}

function EventsCard() {
  const { t } = useI18n();
  const { message } = App.useApp();
  const settings = useSettings();
  const save = useSetSettings();
  const health = useEventsHealth(true);
  const [choice, setChoice] = useState<WebhookChoice>({ path: 'off', publicUrl: '' });
  const [port, setPort] = useState(0);
  const data = settings.data;
  useEffect(() => {
    if (data === undefined) return;
    setChoice(choiceFromTunnel(data.webhookTunnel));
    setPort(data.webhookPort);
  }, [data]);
  const h = health.data;
  return (
    <Card title={t('settings.events')} data-testid="settings-events">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('settings.eventsHint')}</Typography.Text>
        {data?.webhookNotice === 'localtunnelRetired' ? <Alert type="warning" showIcon data-testid="settings-localtunnel-retired" title={t('settings.localtunnelRetired')} /> : null}
        <Form layout="vertical" style={{ maxWidth: 560 }}>
          <Form.Item label={t('settings.tunnel')} extra={t(`settings.tunnel.${choice.path}.hint`)}>
            <Select<WebhookPath>
              data-testid="settings-tunnel"
              value={choice.path}
              onChange={(path) => setChoice({ ...choice, path })}
              options={WEBHOOK_PATHS.map((path) => ({ value: path, label: t(`settings.tunnel.${path}`) }))}
            />
          </Form.Item>
          {choice.path === 'url' ? (
            <Form.Item label={t('settings.publicUrl')}>
              <Input
                data-testid="settings-public-url"
                value={choice.publicUrl}
                maxLength={2000}
                placeholder="https://hooks.example.com"
                onChange={(event) => setChoice({ ...choice, publicUrl: event.target.value })}
              />
            </Form.Item>
          ) : null}
          {choice.path === 'ngrok' ? <NgrokAuthtokenField /> : null}
          {choice.path !== 'off' ? (
            <Form.Item label={t('settings.port')}>
              <InputNumber<number> data-testid="settings-port" min={0} max={65535} precision={0} value={port} onChange={(value) => setPort(value ?? 0)} />
            </Form.Item>
          ) : null}
          <Button
            type="primary"
            data-testid="settings-events-save"
            loading={save.isPending}
            disabled={choice.path === 'url' && choice.publicUrl.trim() === ''}
            onClick={() => save.mutate({ webhookTunnel: tunnelFromChoice(choice), webhookPort: port }, { onSuccess: () => void message.success(t('settings.saved')) })}
          >
            {t('common.save')}
          </Button>
        </Form>
        {save.error !== null ? <ProblemAlert explained={explainError(save.error)} /> : null}
        {h !== undefined ? <WebhookHealthPanel health={h} /> : null}
        {health.error !== null ? <ProblemAlert explained={explainError(health.error)} /> : null}
      </Space>
    </Card>
  );
}

function AppearanceCard() {
  const { t } = useI18n();
  const language = useUiStore((state) => state.language);
  const theme = useUiStore((state) => state.theme);
  const { setLanguage, setTheme } = useChangePreferences();
  return (
    <Card title={t('settings.appearance')} data-testid="settings-appearance">
      <Form layout="vertical" style={{ maxWidth: 360 }}>
        <Form.Item label={t('settings.language')}>
          <Select<LanguagePreference>
            data-testid="settings-language"
            value={language}
            onChange={setLanguage}
            options={[
              { value: 'system', label: t('settings.language.system') },
              { value: 'zh-CN', label: '简体中文' },
              { value: 'en', label: 'English' },
            ]}
          />
        </Form.Item>
        <Form.Item label={t('settings.theme')}>
          <Radio.Group data-testid="settings-theme" value={theme} onChange={(event) => setTheme(event.target.value as ThemePreference)} optionType="button">
            <Radio value="system">{t('settings.theme.system')}</Radio>
            <Radio value="light">{t('settings.theme.light')}</Radio>
            <Radio value="dark">{t('settings.theme.dark')}</Radio>
          </Radio.Group>
        </Form.Item>
      </Form>
    </Card>
  );
}

export function SettingsScreen({ onReconnect }: { onReconnect: () => void }) {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="settings-screen">
      <MerchantsCard />
      <ConnectionCard onReconnect={onReconnect} />
      <EventsCard />
      <LowBalanceSetting />
      <AppearanceCard />
      <BackgroundSettings />
    </Space>
  );
}
