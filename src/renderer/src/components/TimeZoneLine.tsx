// "按您所在时区计日：中国标准时间（UTC+8）": the zone the spend report counts days in, named as a buyer
// names it; its IANA id (Asia/Shanghai) after it in small type, marked as technical detail.
import { Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { timeZoneName } from '../../../shared/date-time';
import { Untranslated } from './MerchantText';

export function TimeZoneLine({ timeZone }: { timeZone: string }) {
  const { t, locale } = useI18n();
  const named = timeZoneName(timeZone, locale, Date.now());
  const shown = named === null ? null : named.name === null ? named.offset : t('dashboard.timeZoneValue', { name: named.name, offset: named.offset });
  return (
    <Typography.Text type="secondary" data-testid="dashboard-time-zone">
      {t('dashboard.timeZone')}
      {shown ?? <Untranslated kind="technical">{timeZone}</Untranslated>}
      {shown !== null ? (
        <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 8 }} title={t('dashboard.timeZoneId')}>
          <Untranslated kind="technical">{timeZone}</Untranslated>
        </Typography.Text>
      ) : null}
    </Typography.Text>
  );
}
