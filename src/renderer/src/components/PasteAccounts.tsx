// "Paste many accounts" for perUnit top-ups: one line per unit, straight from a spreadsheet. Core
// splits the text with the batch reader's CSV rules (batch.parsePaste: a quoted value keeps its
// commas and newlines), so a paste and a file are read the same way.
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Space, Typography } from 'antd';
import { useDeferredValue, useState } from 'react';
import { api } from '../bridge';
import { useI18n } from '../i18n/use-i18n';
import { groupsFromRows, type EntryGroup, type FieldModel } from '../lib/template-form';

export function PasteAccounts({ fields, maxUnits, onApply }: { fields: readonly FieldModel[]; maxUnits: number; onApply: (groups: EntryGroup[]) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text);
  const parsed = useQuery({
    queryKey: ['paste', fields.length, deferred],
    queryFn: () => api.batch.parsePaste({ text: deferred, fieldCount: Math.max(1, fields.length) }),
    enabled: deferred.trim() !== '',
    staleTime: Infinity,
  });
  const current = deferred === text && text.trim() !== '' && parsed.data !== undefined;
  const groups = current ? groupsFromRows(parsed.data.rows, fields) : [];
  const tooMany = groups.length > maxUnits;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('order.pasteHint', { fields: fields.map((field) => field.label).join(', ') })}</Typography.Text>
      <Input.TextArea data-testid="order-paste" rows={5} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} />
      {tooMany ? <Typography.Text type="danger">{t('order.pasteTooMany', { count: groups.length, max: maxUnits })}</Typography.Text> : null}
      <Button data-testid="order-paste-apply" disabled={groups.length === 0 || tooMany} onClick={() => onApply(groups)}>
        {t('order.pasteApply', { count: groups.length })}
      </Button>
    </Space>
  );
}
