// "Paste many accounts" for perUnit top-ups: one line per unit, straight from a spreadsheet.
import { Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { parsePastedAccounts, type EntryGroup, type FieldModel } from '../lib/template-form';

export function PasteAccounts({ fields, maxUnits, onApply }: { fields: readonly FieldModel[]; maxUnits: number; onApply: (groups: EntryGroup[]) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const groups = parsePastedAccounts(text, fields);
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
