// The batch preview's cells that name no option, or several (contract §7.11 "Filled by label"), in full
// above the rows (whose cells are one line high): one line per field and value, with the rows that hold
// it, so a zone misspelt in 200 rows is one line to read, not 200 cut ones.
import { Alert } from 'antd';
import type { BatchPreviewView } from '../../../shared/ipc/views/batch';
import { useI18n } from '../i18n/use-i18n';
import type { OptionProblem } from '../lib/option-problem-words';
import { OptionProblemText } from './OptionProblemText';

/** At most this many row numbers per line; more are shown as "…". */
const ROWS_SHOWN = 10;

interface Grouped {
  readonly key: string;
  readonly problem: OptionProblem;
  readonly rows: number[];
}

function grouped(preview: BatchPreviewView): Grouped[] {
  const labels = new Map(preview.targets.map((target) => [target.target, target.label || target.target]));
  const byKey = new Map<string, Grouped>();
  for (const row of preview.rows) {
    for (const error of row.errors) {
      if (error.option === undefined) continue;
      const key = JSON.stringify([error.path, error.option.reason, error.option.given]);
      const found = byKey.get(key) ?? { key, problem: { field: labels.get(error.path) ?? error.path, ...error.option }, rows: [] };
      found.rows.push(row.rowNumber);
      byKey.set(key, found);
    }
  }
  return [...byKey.values()];
}

export function BatchOptionProblems({ preview }: { preview: BatchPreviewView }) {
  const { t, locale } = useI18n();
  const lines = grouped(preview);
  if (lines.length === 0) return null;
  const count = new Set(lines.flatMap((line) => line.rows)).size;
  const separator = locale === 'zh-CN' ? '、' : ', ';
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="batch-option-problems"
      title={t('options.batchTitle', { count })}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {lines.map(({ key, problem, rows }) => {
            const shown = rows.slice(0, ROWS_SHOWN).join(separator) + (rows.length > ROWS_SHOWN ? '…' : '');
            const [before = '', after = ''] = t('options.batchRows', { count: rows.length, rows: shown, problem: '\uE001' }).split('\uE001');
            return (
              <li key={key} data-testid="batch-option-problem" data-rows={rows.join(',')}>
                {before}
                <OptionProblemText problem={problem} />
                {after}
              </li>
            );
          })}
        </ul>
      }
    />
  );
}
