// The merchant a row belongs to, named as the buyer named its profile: their own words, never translated.
import { Tag } from 'antd';
import type { MerchantTag } from '../../../shared/ipc/views/profiles';
import { Untranslated } from './MerchantText';

export function MerchantName({ merchant }: { merchant: MerchantTag }) {
  return (
    <Tag color="geekblue" data-testid="merchant-name" data-profile={merchant.profileId}>
      <Untranslated kind="buyer">{merchant.name}</Untranslated>
    </Tag>
  );
}
