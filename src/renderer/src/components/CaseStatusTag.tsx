// A case's state badge: the merchant's state by name; an unknown one reads "Unknown (raw)" in a
// warning colour and is never shown as resolved.
import { Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { caseStateView } from '../lib/case-status';

export function CaseStatusTag({ state }: { state: string }) {
  const i18n = useI18n();
  const view = caseStateView(state, i18n);
  return (
    <Tag color={view.tone} data-testid="case-status" data-state={state}>
      {view.label}
    </Tag>
  );
}
