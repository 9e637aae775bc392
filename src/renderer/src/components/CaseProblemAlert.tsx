// A failed after-sales action in the buyer's words. CASE_ACTION_NOT_ALLOWED (ours or the merchant's
// 409104) and a create still waiting for the merchant get their own explanation, with core's words
// (why exactly) beneath; everything else is explained like any other failure.
import { Alert } from 'antd';
import { IpcCallError } from '../../../shared/ipc/ipc-result';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { ProblemAlert } from './ProblemAlert';
import { ProblemFacts } from './ProblemFacts';

export function CaseProblemAlert({ error, context }: { error: unknown; context: 'open' | 'send' }) {
  const { t } = useI18n();
  const explained = explainError(error);
  const waiting = context === 'open' && error instanceof IpcCallError && error.error.code === 'MERCHANT_UNREACHABLE';
  if (explained.problem !== 'actionNotAllowed' && !waiting) return <ProblemAlert explained={explained} testId="case-problem" />;
  const kind = waiting ? 'pending' : context === 'open' ? 'openNotAllowed' : 'sendNotAllowed';
  return (
    <Alert
      data-testid="case-problem"
      data-problem={kind}
      type={waiting ? 'warning' : 'error'}
      showIcon
      title={t(`aftersale.problem.${kind}.title`)}
      description={
        <>
          <div>{t(`aftersale.problem.${kind}.body`)}</div>
          <ProblemFacts explained={explained} technical />
        </>
      }
    />
  );
}
