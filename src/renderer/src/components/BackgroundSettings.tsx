// Settings → runs in the background (contract §17): close to tray and start at login, stored with the
// app's other settings and applied by the desktop app. What this host cannot do is said, not hidden
// behind a switch that does nothing: the web host has no window to close, an unpackaged build registers
// no login item, and macOS keeps the app in the Dock its own way.
import { Card, Form, Switch, Typography } from 'antd';
import type { DesktopSupport } from '../../../shared/ipc/views/settings';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useDesktopSupport, useSetSettings, useSettings } from '../queries/settings';
import { ProblemAlert } from './ProblemAlert';

const NOTE_KEYS = {
  closeToTray: { tray: 'settings.background.closeToTray.tray', dock: 'settings.background.closeToTray.dock', none: 'settings.background.onlyDesktop' },
  startAtLogin: {
    loginItem: 'settings.background.startAtLogin.loginItem',
    autostartFile: 'settings.background.startAtLogin.autostartFile',
    notInstalled: 'settings.background.onlyInstalled',
    none: 'settings.background.onlyDesktop',
  },
} as const;

export function BackgroundSettings() {
  const { t } = useI18n();
  const settings = useSettings();
  const support = useDesktopSupport();
  const save = useSetSettings();
  const data = settings.data;
  const can: DesktopSupport | undefined = support.data;
  const closeUsable = can?.closeToTray === 'tray';
  const loginUsable = can?.startAtLogin === 'loginItem' || can?.startAtLogin === 'autostartFile';
  return (
    <Card title={t('settings.background')} data-testid="settings-background">
      <Form layout="vertical" style={{ maxWidth: 560 }}>
        <Form.Item label={t('settings.background.closeToTray')} extra={can === undefined ? null : <span data-testid="settings-close-to-tray-note">{t(NOTE_KEYS.closeToTray[can.closeToTray])}</span>}>
          <Switch
            data-testid="settings-close-to-tray"
            aria-label={t('settings.background.closeToTray')}
            // macOS: closing always keeps the app in the Dock, so the switch shows that, fixed.
            checked={can?.closeToTray === 'dock' ? true : (data?.closeToTray ?? true)}
            disabled={!closeUsable || data === undefined}
            loading={save.isPending && save.variables.closeToTray !== undefined}
            onChange={(closeToTray) => save.mutate({ closeToTray })}
          />
        </Form.Item>
        <Form.Item label={t('settings.background.startAtLogin')} extra={can === undefined ? null : <span data-testid="settings-start-at-login-note">{t(NOTE_KEYS.startAtLogin[can.startAtLogin])}</span>}>
          <Switch
            data-testid="settings-start-at-login"
            aria-label={t('settings.background.startAtLogin')}
            checked={loginUsable && data?.startAtLogin === true}
            disabled={!loginUsable || data === undefined}
            loading={save.isPending && save.variables.startAtLogin !== undefined}
            onChange={(startAtLogin) => save.mutate({ startAtLogin })}
          />
        </Form.Item>
      </Form>
      {can !== undefined && can.closeToTray !== 'none' ? <Typography.Text type="secondary">{t('settings.background.quitHint')}</Typography.Text> : null}
      {save.error !== null ? <ProblemAlert explained={explainError(save.error)} /> : null}
      {support.error !== null ? <ProblemAlert explained={explainError(support.error)} /> : null}
    </Card>
  );
}
