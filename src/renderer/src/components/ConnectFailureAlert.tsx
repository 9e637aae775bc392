// A failed connect test in the buyer's words: which part failed and what to do (lib/connect-failure.ts),
// with the merchant's code and request ID for support. Anything else falls back to the general
// explanation; never the "offline, orders are queued" banner text: nothing was connected yet.
import { Alert, Typography } from 'antd';
import { ProblemAlert } from './ProblemAlert';
import { WithMerchantData } from './MerchantText';
import { useI18n } from '../i18n/use-i18n';
import { connectFailureOf } from '../lib/connect-failure';
import { explainError } from '../lib/explain-error';

/** `inSettings`: a new or removed CA was tested (Settings), so an untrusted certificate means that CA does not fit. */
export function ConnectFailureAlert({ error, testId, inSettings = false }: { error: unknown; testId: string; inSettings?: boolean }) {
  const { t, td } = useI18n();
  const failure = connectFailureOf(error);
  if (failure === null) return <ProblemAlert explained={explainError(error)} testId={testId} />;
  const extra: string[] = [];
  if (failure.merchantCode !== null) extra.push(t('problem.merchantCode', { code: failure.merchantCode }));
  if (failure.requestId !== null) extra.push(t('common.requestId', { id: failure.requestId }));
  // A field problem is its own body: the check that failed says what to change.
  const body =
    failure.input !== null
      ? td(`connectInput.${failure.input}`, 'problem.invalidInput.body')
      : inSettings && failure.kind === 'tlsUntrusted'
        ? t('connectFailure.tlsUntrusted.settingsBody')
        : td(`connectFailure.${failure.kind}.body`, 'problem.unknown.body');
  return (
    <Alert
      data-testid={testId}
      data-failure={failure.kind}
      type="error"
      showIcon
      title={td(`connectFailure.${failure.kind}.title`, 'problem.unknown.title')}
      description={
        <>
          <div>{body}</div>
          {extra.length > 0 ? (
            <Typography.Text type="secondary">
              <WithMerchantData text={extra.join(' · ')} data={[failure.requestId]} />
            </Typography.Text>
          ) : null}
        </>
      }
    />
  );
}
