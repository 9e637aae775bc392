// The way on from a variant that cannot be bought here but is linked to the same item at other
// merchants (issue 24, contract §15.4): instead of a disabled Buy, "Other merchants" opens the order
// dialog for it, which lists the link's offers (the buyer chooses and confirms at that merchant's price).
// Under a rule the batch stays reachable too: the batch goes to the rule's choice (§15.4).
import { TeamOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { useLinks } from '../queries/compare';
import { useProfiles } from '../queries/profiles';
import { useUiStore } from '../state/ui-store';
import { BatchFromFileButton } from './BatchFromFileButton';

/** `blocked` is what is shown when the variant is in no link: the disabled Buy with its reason. */
export function OtherMerchantsButton({ productRef, variantRef, blocked }: { productRef: number; variantRef: number; blocked: ReactNode }) {
  const { t } = useI18n();
  const activeId = useProfiles().data?.activeId ?? null;
  const links = useLinks();
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const link = links.data?.find((candidate) => candidate.members.some((m) => m.merchant.profileId === activeId && m.productRef === productRef && m.variantRef === variantRef));
  if (link === undefined || link.members.length < 2) return <>{blocked}</>;
  return (
    <Space size={4}>
      {link.rule !== null ? <BatchFromFileButton productRef={productRef} variantRef={variantRef} /> : null}
      <Tooltip title={t('compare.otherMerchantsHint')}>
        <Button
          size="small"
          icon={<TeamOutlined />}
          data-testid="variant-other-merchants"
          onClick={(event) => {
            event.stopPropagation();
            openOrderForm({ kind: 'new', productRef, variantRef });
          }}
        >
          {t('compare.otherMerchants')}
        </Button>
      </Tooltip>
    </Space>
  );
}
