// A failure explained in the buyer's words: what happened, what to do, and the merchant's code and
// request ID for support.
import { Alert, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n';
import type { Explained } from '../lib/explain-error';

export function ProblemAlert({ explained, action, testId }: { explained: Explained; action?: ReactNode; testId?: string }) {
  const { t, td } = useI18n();
  const severe = explained.problem !== 'rateLimited' && explained.problem !== 'templateChanged' && explained.problem !== 'offline';
  const extra: string[] = [];
  if (explained.merchantCode !== null) extra.push(t('problem.merchantCode', { code: explained.merchantCode }));
  if (explained.requestId !== null) extra.push(t('common.requestId', { id: explained.requestId }));
  return (
    <Alert
      data-testid={testId ?? 'problem-alert'}
      data-problem={explained.problem}
      type={severe ? 'error' : 'warning'}
      showIcon
      title={td(`problem.${explained.problem}.title`, 'problem.unknown.title')}
      action={action}
      description={
        <>
          <div>{td(`problem.${explained.problem}.body`, 'problem.unknown.body')}</div>
          {explained.fields.map((field) => (
            <div key={field.path}>
              <Typography.Text type="secondary">{`${field.path}: ${field.message}`}</Typography.Text>
            </div>
          ))}
          {explained.problem === 'unknown' || explained.problem === 'invalidInput' ? (
            <Typography.Text type="secondary">{t('common.details', { detail: explained.detail })}</Typography.Text>
          ) : null}
          {extra.length > 0 ? (
            <div>
              <Typography.Text type="secondary">{extra.join(' · ')}</Typography.Text>
            </div>
          ) : null}
        </>
      }
    />
  );
}
