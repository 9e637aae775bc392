// Why a batch row failed, in the words the order dialog uses for the same merchant code
// (problem.<meaning>.title, shared/merchant-error-words.ts), the code beside them for support; an
// order the merchant failed after taking it says the merchant's own reason, marked as theirs.
import { Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { problemOfLastErrorCode } from '../lib/explain-error';
import type { BatchStatusRow } from '../../../shared/ipc/views/batch';
import { MerchantSaid, Untranslated } from './MerchantText';

export function BatchRowFailure({ row }: { row: BatchStatusRow }) {
  const { t, td } = useI18n();
  if (row.phase !== 'failed') return null;
  const problem = problemOfLastErrorCode(row.errorCode);
  if (problem === null || row.errorCode === null) {
    return row.errorMessage === null ? null : (
      <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="batch-row-failure">
        <MerchantSaid text={row.errorMessage} />
      </Typography.Text>
    );
  }
  const merchantCode = /^\d+$/.test(row.errorCode);
  return (
    <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="batch-row-failure" data-problem={problem} data-code={row.errorCode}>
      {td(`problem.${problem}.title`, 'problem.unknown.title')}{' '}
      <Typography.Text type="secondary" style={{ fontSize: 11 }} data-testid="batch-row-failure-code">
        {merchantCode ? t('problem.merchantCode', { code: row.errorCode }) : <Untranslated kind="technical">{row.errorCode}</Untranslated>}
      </Typography.Text>
    </Typography.Text>
  );
}
