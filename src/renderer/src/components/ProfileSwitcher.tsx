// The header's merchant switcher (issue 17): the active merchant's name; its menu lists every profile
// with that profile's OWN connection state (worded like the header's connection indicator), then
// "Add merchant…" and "Manage merchants…". Ctrl+Alt+1…9 switch to the Nth profile and Ctrl+Alt+M
// opens the menu (lib/profile-shortcuts.ts); the menu shows each profile's keys, which is the
// shortcuts' help.
import { CheckOutlined, DownOutlined, PlusOutlined, SettingOutlined, ShopOutlined } from '@ant-design/icons';
import { Badge, Button, Dropdown, Space, Typography } from 'antd';
import type { MenuProps } from 'antd';
import { useEffect } from 'react';
import type { ConnectionStateName } from '../../../shared/ipc/views/connection';
import type { ProfileView } from '../../../shared/ipc/views/profiles';
import { useI18n } from '../i18n/use-i18n';
import { OPEN_SWITCHER_KEYS, profileShortcut, switchKeysOf } from '../lib/profile-shortcuts';
import { useProfiles, useSwitchProfile } from '../queries/profiles';
import { useProfileDialogStore } from '../state/profile-dialog-store';
import { MerchantLabel } from './MerchantName';
import { useUiStore } from '../state/ui-store';

/** The same colours as the header's connection indicator (AppLayout). */
export const BADGE_OF_STATE: Record<ConnectionStateName, 'success' | 'warning' | 'error' | 'default'> = {
  notConnected: 'default',
  online: 'success',
  degraded: 'warning',
  keyRefused: 'error',
  suspended: 'error',
  ipDenied: 'error',
  certificate: 'error',
  offline: 'error',
};

export function ProfileStateBadge({ profile }: { profile: ProfileView }) {
  const { t } = useI18n();
  const state = profile.connected ? profile.state.state : 'notConnected';
  return (
    <span data-testid="profile-state" data-profile-id={profile.id} data-state={state}>
      <Badge status={BADGE_OF_STATE[state]} text={t(`connState.header.${state}`)} />
    </span>
  );
}

/** Ctrl+Alt+1…9 and Ctrl+Alt+M, anywhere in the frame. */
function useProfileShortcuts(profiles: readonly ProfileView[], onSwitch: (profileId: string) => void): void {
  const setSwitcherOpen = useProfileDialogStore((state) => state.setSwitcherOpen);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const shortcut = profileShortcut({ code: event.code, ctrlKey: event.ctrlKey, altKey: event.altKey, shiftKey: event.shiftKey, metaKey: event.metaKey, altGraph: event.getModifierState('AltGraph') });
      if (shortcut === null) return;
      if (shortcut.kind === 'open') {
        event.preventDefault();
        setSwitcherOpen(true);
        return;
      }
      const target = profiles[shortcut.index];
      if (target === undefined) return;
      event.preventDefault();
      if (!target.active) onSwitch(target.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [profiles, onSwitch, setSwitcherOpen]);
}

export function ProfileSwitcher() {
  const { t } = useI18n();
  const profiles = useProfiles();
  const switcher = useSwitchProfile();
  const open = useProfileDialogStore((state) => state.switcherOpen);
  const setOpen = useProfileDialogStore((state) => state.setSwitcherOpen);
  const openDialog = useProfileDialogStore((state) => state.open);
  const setPage = useUiStore((state) => state.setPage);
  const list = profiles.data?.profiles ?? [];
  const onSwitch = switcher.mutate;
  useProfileShortcuts(list, onSwitch);
  const active = list.find((profile) => profile.active);
  if (active === undefined) return null;

  const items: MenuProps['items'] = [
    ...list.map((profile, index) => ({
      key: profile.id,
      'data-testid': 'switcher-profile',
      'data-profile-id': profile.id,
      'data-active': profile.active ? 'true' : 'false',
      label: (
        <Space size="middle" style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space size="small">
            {profile.active ? <CheckOutlined /> : <span style={{ display: 'inline-block', width: 14 }} />}
            <Typography.Text strong={profile.active}>
              <MerchantLabel merchant={profile} />
            </Typography.Text>
          </Space>
          <Space size="middle">
            <ProfileStateBadge profile={profile} />
            <Typography.Text type="secondary" keyboard>
              {switchKeysOf(index) ?? ''}
            </Typography.Text>
          </Space>
        </Space>
      ),
    })),
    { type: 'divider' as const },
    { key: 'add', icon: <PlusOutlined />, 'data-testid': 'switcher-add', label: t('profiles.add') },
    { key: 'manage', icon: <SettingOutlined />, 'data-testid': 'switcher-manage', label: t('profiles.manage') },
    { type: 'divider' as const },
    { key: 'help', disabled: true, label: <Typography.Text type="secondary">{t('profiles.shortcutHelp', { open: OPEN_SWITCHER_KEYS })}</Typography.Text> },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    setOpen(false);
    if (key === 'add') openDialog({ kind: 'add' });
    else if (key === 'manage') setPage('settings');
    else if (key !== 'help' && key !== active.id) onSwitch(key);
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} open={open} onOpenChange={setOpen} placement="bottomRight">
      <Button data-testid="profile-switcher" data-active-profile={active.id} icon={<ShopOutlined />} loading={switcher.isPending} title={t('profiles.switcherTitle', { open: OPEN_SWITCHER_KEYS })}>
        <MerchantLabel merchant={active} data-testid="profile-switcher-name" />
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
