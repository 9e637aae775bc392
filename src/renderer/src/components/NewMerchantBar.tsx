// Over the connect screen of a merchant profile not yet connected (just added), when the buyer has
// others: which merchant is being connected, and the way back to one that works (the new profile
// stays, unconnected, until connected or removed in Settings).
import { ArrowLeftOutlined, ShopOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useProfiles, useSwitchProfile } from '../queries/profiles';
import { useProfileDialogStore } from '../state/profile-dialog-store';
import { MerchantLabel } from './MerchantName';

export function NewMerchantBar() {
  const { t } = useI18n();
  const profiles = useProfiles();
  const switcher = useSwitchProfile();
  const returnTo = useProfileDialogStore((state) => state.returnTo);
  const list = profiles.data?.profiles ?? [];
  const active = list.find((profile) => profile.active);
  if (active === undefined || list.length < 2) return null;
  // Back to the one the buyer came from, else the first connected one.
  const back = list.find((profile) => profile.id === returnTo && !profile.active) ?? list.find((profile) => profile.connected && !profile.active);
  return (
    <div className="new-merchant-bar" data-testid="new-merchant-bar">
      <Space size="middle" wrap>
        <Typography.Text>
          <ShopOutlined /> {t('profiles.connectingNew')}{' '}
          <Typography.Text strong>
            <MerchantLabel merchant={active} data-testid="new-merchant-name" />
          </Typography.Text>
        </Typography.Text>
        {back !== undefined ? (
          <Button size="small" icon={<ArrowLeftOutlined />} loading={switcher.isPending} onClick={() => switcher.mutate(back.id)} data-testid="new-merchant-back">
            {t('profiles.backTo')}{' '}
            <MerchantLabel merchant={back} />
          </Button>
        ) : null}
      </Space>
    </div>
  );
}
