// A merchant profile's name on screen (issue 26, shared/merchant-label.ts): the buyer's own name and
// the account's (nickname or host) as stored, marked as not ours to translate; the first profile's
// fallback worded in the app's language ("商户 1"), as our own text.
import { Tag } from 'antd';
import type { HTMLAttributes } from 'react';
import { merchantLabel, type NamedMerchant } from '../../../shared/merchant-label';
import type { MerchantTag } from '../../../shared/ipc/views/profiles';
import { useI18n } from '../i18n/use-i18n';

/** The label of a merchant profile or tag in the app's language (for texts and inputs). */
export function useMerchantLabel(): (merchant: NamedMerchant) => string {
  const { locale } = useI18n();
  return (merchant) => merchantLabel(merchant, locale);
}

export function MerchantLabel({ merchant, ...rest }: { merchant: NamedMerchant } & HTMLAttributes<HTMLSpanElement>) {
  const label = useMerchantLabel()(merchant);
  if (merchant.nameSource === 'fallback') return <span {...rest}>{label}</span>;
  return (
    <span {...rest} translate="no" data-untranslated={merchant.nameSource === 'account' ? 'merchant' : 'buyer'}>
      {label}
    </span>
  );
}

/** The merchant a row belongs to. */
export function MerchantName({ merchant }: { merchant: MerchantTag }) {
  return (
    <Tag color="geekblue" data-testid="merchant-name" data-profile={merchant.profileId}>
      <MerchantLabel merchant={merchant} />
    </Tag>
  );
}
