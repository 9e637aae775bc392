// "Paste many accounts" for perUnit top-ups: one line per unit, straight from a spreadsheet. Core
// splits the text with the batch reader's CSV rules (batch.parsePaste: a quoted value keeps its
// commas and newlines), so a paste and a file are read the same way. An option field's cell may name
// the option by label or code (lib/pasted-options.ts); a line naming none is listed and left out.
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { useDeferredValue, useState } from 'react';
import { api } from '../bridge';
import { useI18n } from '../i18n/use-i18n';
import { readPastedRows, type RefusedLine } from '../lib/pasted-options';
import type { EntryGroup, FieldModel } from '../lib/template-form';
import { Untranslated } from './MerchantText';
import { OptionProblemText } from './OptionProblemText';

function RefusedLines({ refused }: { refused: readonly RefusedLine[] }) {
  const { t, locale } = useI18n();
  const lineWords = (line: number): string[] => t('options.pasteLine', { line, problem: '\u0001' }).split('\u0001');
  return (
    <Alert
      type="error"
      showIcon
      data-testid="order-paste-problems"
      title={t('options.pasteRefused', { count: refused.length })}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {refused.map(({ line, problems }) => (
            <li key={line} data-testid="order-paste-problem" data-line={line}>
              {lineWords(line)[0]}
              {problems.map((problem, index) => (
                <span key={problem.fieldRef}>
                  {index > 0 ? (locale === 'zh-CN' ? '；' : '; ') : null}
                  <OptionProblemText problem={problem} />
                </span>
              ))}
              {lineWords(line)[1]}
            </li>
          ))}
        </ul>
      }
    />
  );
}

/** Option fields take a label or a code, and an empty cell keeps the option chosen; the merchant's names shown as they are. */
function OptionHint({ fields, example }: { fields: readonly string[]; example: string }) {
  const { t, locale } = useI18n();
  const [before = '', middle = '', after = ''] = t('options.pasteHint', { fields: '\uE001', example: '\uE002' }).split(/[\uE001\uE002]/);
  return (
    <Typography.Text type="secondary" data-testid="order-paste-option-hint">
      {before}
      <Untranslated>{fields.join(locale === 'zh-CN' ? '、' : ', ')}</Untranslated>
      {middle}
      <Untranslated>{example}</Untranslated>
      {after}
    </Typography.Text>
  );
}

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
  const reading = current ? readPastedRows(parsed.data.rows, fields) : { groups: [], refused: [] };
  const { groups, refused } = reading;
  const tooMany = groups.length > maxUnits;
  const optionFields = fields.filter((field) => field.type === 'select' && field.options.length > 0);
  const example = optionFields[0]?.options[0];
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('order.pasteHint', { fields: fields.map((field) => field.label).join(', ') })}</Typography.Text>
      {example !== undefined ? <OptionHint fields={optionFields.map((field) => field.label)} example={example.label || example.value} /> : null}
      <Input.TextArea data-testid="order-paste" translate="no" rows={5} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} />
      {refused.length > 0 ? <RefusedLines refused={refused} /> : null}
      {tooMany ? <Typography.Text type="danger">{t('order.pasteTooMany', { count: groups.length, max: maxUnits })}</Typography.Text> : null}
      <Button data-testid="order-paste-apply" disabled={groups.length === 0 || tooMany} onClick={() => onApply([...groups])}>
        {t('order.pasteApply', { count: groups.length })}
      </Button>
    </Space>
  );
}
