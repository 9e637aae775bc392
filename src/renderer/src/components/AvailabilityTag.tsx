// Availability as the merchant sent it; a value this build does not know is shown as unknown,
// never as available.
import { Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { classifyAvailability } from '../../../shared/merchant/known-values';
import { WithMerchantData } from './MerchantText';

export function AvailabilityTag({ availability }: { availability: string }) {
  const { t } = useI18n();
  const c = classifyAvailability(availability);
  if (c.kind === 'unknown') return <Tag color="warning">
        <WithMerchantData text={t('common.unknownValue', { raw: c.raw })} data={[c.raw]} />
      </Tag>;
  return <Tag color={c.value === 'available' ? 'green' : 'default'}>{t(`availability.${c.value}`)}</Tag>;
}
