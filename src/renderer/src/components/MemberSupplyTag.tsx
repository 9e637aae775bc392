// A link member's or an offer's supply, as core reports it from the merchant's last answer
// (views/compare.ts): available (with the units left when published), out of stock, not for sale,
// or not known — the same words and colours as the catalog's SupplyTag.
import { Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import type { LinkMember } from '../../../shared/ipc/views/compare';

const COLORS: Record<LinkMember['supply'], string> = { available: 'green', outOfStock: 'orange', unavailable: 'default', unknown: 'warning' };

export function MemberSupplyTag({ member }: { member: Pick<LinkMember, 'supply' | 'remainingUnits'> }) {
  const { t, locale } = useI18n();
  const text =
    member.supply === 'available'
      ? member.remainingUnits !== null
        ? t('supply.availableLeft', { count: member.remainingUnits.toLocaleString(locale) })
        : t('supply.available')
      : member.supply === 'outOfStock'
        ? t('supply.outOfStock')
        : member.supply === 'unavailable'
          ? t('supply.unavailable')
          : t('compare.supplyUnknown');
  return (
    <Tag color={COLORS[member.supply]} data-testid="member-supply" data-supply={member.supply}>
      {text}
    </Tag>
  );
}
