// Who we are connected as, the balance and the account state (unknown states shown as unknown).
import { Descriptions, Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { classifyAccessState } from '../../../shared/merchant/known-values';
import type { AccountView } from '../../../shared/ipc/views/connection';
import { WithMerchantData } from './MerchantText';

export function AccessStateTag({ accessState }: { accessState: string }) {
  const { t } = useI18n();
  const c = classifyAccessState(accessState);
  if (c.kind === 'unknown') return <Tag color="warning">
        <WithMerchantData text={t('common.unknownValue', { raw: c.raw })} data={[c.raw]} />
      </Tag>;
  return <Tag color={c.value === 'active' ? 'success' : 'error'}>{t(`access.${c.value}`)}</Tag>;
}

export function AccountSummary({ account }: { account: AccountView }) {
  const { t } = useI18n();
  return (
    <Descriptions column={1} size="small" bordered data-testid="account-summary">
      <Descriptions.Item label={t('connect.account')}>{t('join.note', { text: account.nickname, note: account.userId })}</Descriptions.Item>
      <Descriptions.Item label={t('header.balance')}>
        <span data-testid="account-balance">{account.currency === 'CNY' ? formatFen(account.balanceFen) : `${formatFen(account.balanceFen)} ${account.currency}`}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('connect.accountState')}>
        <span data-testid="account-state">
          <AccessStateTag accessState={account.accessState} />
        </span>
      </Descriptions.Item>
    </Descriptions>
  );
}
