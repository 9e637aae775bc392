// A failure explained in the buyer's words: what happened, what to do, and beneath it the facts for
// support (refused fields, the merchant's code in words, the request ID, core's technical line).
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n';
import type { Explained } from '../lib/explain-error';
import { ProblemFacts } from './ProblemFacts';

export function ProblemAlert({ explained, action, testId }: { explained: Explained; action?: ReactNode; testId?: string }) {
  const { td } = useI18n();
  const severe = explained.problem !== 'rateLimited' && explained.problem !== 'templateChanged' && explained.problem !== 'offline';
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
          <ProblemFacts explained={explained} technical={explained.problem === 'unknown' || explained.problem === 'invalidInput'} />
        </>
      }
    />
  );
}
