// Settings' "Merchants" section: every merchant profile with its own connection state, address and
// user ID; switch to one, rename it, remove it (RemoveProfileDialog), or add another.
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ProfileView } from '../../../shared/ipc/views/profiles';
import { useI18n } from '../i18n/use-i18n';
import { switchKeysOf } from '../lib/profile-shortcuts';
import { testId } from '../lib/test-id';
import { useProfiles, useSwitchProfile } from '../queries/profiles';
import { useProfileDialogStore } from '../state/profile-dialog-store';
import { MerchantLabel } from './MerchantName';
import { ProfileStateBadge } from './ProfileSwitcher';

export function MerchantsCard() {
  const { t } = useI18n();
  const profiles = useProfiles();
  const switcher = useSwitchProfile();
  const openDialog = useProfileDialogStore((state) => state.open);
  const list = profiles.data?.profiles ?? [];
  const columns: ColumnsType<ProfileView> = [
    {
      key: 'name',
      title: t('profiles.col.name'),
      width: 220,
      render: (_value, profile) => (
        <Space size="small">
          <Typography.Text strong>
            <MerchantLabel merchant={profile} />
          </Typography.Text>
          {profile.active ? <Tag color="blue">{t('profiles.activeTag')}</Tag> : null}
        </Space>
      ),
    },
    { key: 'state', title: t('profiles.col.state'), width: 150, render: (_value, profile) => <ProfileStateBadge profile={profile} /> },
    {
      key: 'merchant',
      title: t('profiles.col.merchant'),
      ellipsis: true,
      render: (_value, profile) => (profile.demo ? t('header.demo') : <span translate="no" data-untranslated="technical">{profile.baseUrl ?? '—'}</span>),
    },
    { key: 'user', title: t('profiles.col.userId'), width: 110, render: (_value, profile) => <span translate="no" data-untranslated="technical">{profile.userId ?? '—'}</span> },
    { key: 'keys', title: t('profiles.col.shortcut'), width: 120, render: (_value, profile) => <Typography.Text keyboard style={{ whiteSpace: 'nowrap' }}>{switchKeysOf(list.indexOf(profile)) ?? '—'}</Typography.Text> },
    {
      key: 'actions',
      title: '',
      width: 250,
      render: (_value, profile) => (
        <Space size={4}>
          <Button size="small" disabled={profile.active} loading={switcher.isPending && switcher.variables === profile.id} onClick={() => switcher.mutate(profile.id)} data-testid="merchant-switch">
            {t('profiles.switchTo')}
          </Button>
          <Button size="small" onClick={() => openDialog({ kind: 'rename', profileId: profile.id })} data-testid="merchant-rename">
            {t('profiles.rename')}
          </Button>
          <Button size="small" danger disabled={list.length <= 1} onClick={() => openDialog({ kind: 'remove', profileId: profile.id })} data-testid="merchant-remove">
            {t('profiles.remove')}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={t('profiles.sectionTitle')}
      data-testid="settings-merchants"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => openDialog({ kind: 'add' })} data-testid="merchant-add">
          {t('profiles.add')}
        </Button>
      }
    >
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('profiles.sectionHint')}</Typography.Text>
        <Table<ProfileView> size="small" rowKey="id" scroll={{ x: 1000 }} columns={columns} dataSource={list} loading={profiles.isLoading} pagination={false} onRow={(profile) => testId('merchant-row', { 'profile-id': profile.id })} />
      </Space>
    </Card>
  );
}
