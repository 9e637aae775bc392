// A variant's (or a catalog row's) one supply status: available (with the stock left when published),
// out of stock, unavailable, or unknown with the merchant's raw value — never two tags that disagree.
import { Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import type { SupplyStatus } from '../../../shared/merchant/supply-status';
import { WithMerchantData } from './MerchantText';

export function supplyText(t: ReturnType<typeof useI18n>['t'], status: SupplyStatus, locale: string): string {
  switch (status.kind) {
    case 'available':
      if (status.remainingUnits !== null) return t('supply.availableLeft', { count: status.remainingUnits.toLocaleString(locale) });
      return status.unlimited ? t('supply.availableUnlimited') : t('supply.available');
    case 'outOfStock':
      return t('supply.outOfStock');
    case 'unavailable':
      return t('supply.unavailable');
    case 'unknown':
      return t('common.unknownValue', { raw: status.raw });
  }
}

/** Why Buy is disabled, in a sentence; null when the status allows buying. */
export function supplyBlockedText(t: ReturnType<typeof useI18n>['t'], status: SupplyStatus): string | null {
  switch (status.kind) {
    case 'available':
      return null;
    case 'outOfStock':
      return t('supply.blockedOutOfStock');
    case 'unavailable':
      return t('supply.blockedUnavailable');
    case 'unknown':
      return t('supply.blockedUnknown', { raw: status.raw });
  }
}

const COLORS: Record<SupplyStatus['kind'], string> = { available: 'green', outOfStock: 'orange', unavailable: 'default', unknown: 'warning' };

export function SupplyTag({ status }: { status: SupplyStatus }) {
  const { t, locale } = useI18n();
  return (
    <Tag color={COLORS[status.kind]} data-testid="supply-status" data-supply={status.kind}>
      <WithMerchantData text={supplyText(t, status, locale)} data={[status.kind === 'unknown' ? status.raw : null]} />
    </Tag>
  );
}
