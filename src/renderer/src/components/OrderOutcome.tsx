// What happened to an order just sent, in words: placed, queued offline, outcome uncertain,
// refused (explained by the merchant's code), or waiting for confirmation of a changed template.
import { Alert, Button } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { problemOfLastErrorCode } from '../lib/explain-error';
import type { OrderDetail } from '../../../shared/ipc/views';
import { useProblemStore } from '../state/problem-store';
import { ProblemAlert } from './ProblemAlert';

export function OrderOutcome({ detail, onView }: { detail: OrderDetail; onView: () => void }) {
  const { t } = useI18n();
  // A fresh intent is "queued" until the outbox sends it; only say offline when we are.
  const offline = useProblemStore((state) => state.browserOffline || state.problem?.problem === 'offline');
  const view = (
    <Button size="small" data-testid="order-view" onClick={onView}>
      {t('order.viewOrder')}
    </Button>
  );
  const common = { 'data-testid': 'order-outcome', 'data-intent-status': detail.intentStatus };
  switch (detail.intentStatus) {
    case 'needs_confirmation':
      return <Alert {...common} type="warning" showIcon title={t('problem.templateChanged.title')} description={t('order.needsConfirmation')} />;
    case 'rejected': {
      const problem = problemOfLastErrorCode(detail.lastErrorCode) ?? 'unknown';
      const code = detail.lastErrorCode !== null && /^\d+$/.test(detail.lastErrorCode) ? Number(detail.lastErrorCode) : null;
      return (
        <div {...common}>
          <ProblemAlert
            explained={{ problem, merchantCode: code, requestId: detail.lastRequestId, detail: detail.lastErrorMessage ?? '', fields: [] }}
            action={view}
          />
        </div>
      );
    }
    case 'queued':
      return <Alert {...common} type="info" showIcon title={t('intent.queued')} description={offline ? t('order.queued') : t('order.recorded')} action={view} />;
    case 'unknown':
    case 'sending':
      return <Alert {...common} type="warning" showIcon title={t('intent.unknown')} description={t('order.uncertain')} action={view} />;
    default:
      return <Alert {...common} type="success" showIcon title={t('order.accepted')} action={view} />;
  }
}
