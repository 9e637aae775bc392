// A variant's stock: units left when tracked, "unlimited", "not disclosed", or unknown as unknown.
import { Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { classifyInventoryType } from '../../../shared/merchant/known-values';

export function StockText({ inventoryType, remainingUnits }: { inventoryType: string; remainingUnits: number | null }) {
  const { t, locale } = useI18n();
  const c = classifyInventoryType(inventoryType);
  if (c.kind === 'unknown') return <Typography.Text type="warning">{t('common.unknownValue', { raw: c.raw })}</Typography.Text>;
  if (c.value === 'unlimited') return <span>{t('product.stockUnlimited')}</span>;
  if (c.value === 'undisclosed' || remainingUnits === null) return <Typography.Text type="secondary">{t('product.stockUndisclosed')}</Typography.Text>;
  return <Typography.Text type={remainingUnits === 0 ? 'danger' : undefined}>{t('product.stockUnits', { count: remainingUnits.toLocaleString(locale) })}</Typography.Text>;
}
