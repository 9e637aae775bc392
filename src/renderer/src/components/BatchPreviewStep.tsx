// The batch dialog's second step: which column feeds which field (guessed, or remembered for the
// product, always shown and changeable), and every row as core checked it by the order form's rules,
// with its errors in the buyer's words and the totals of the rows that will be ordered.
import { Alert, Button, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { UNITS_TARGET } from '../../../shared/batch-file';
import type { BatchPreviewRow, BatchPreviewView } from '../../../shared/ipc/views/batch';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { BatchFallbackNotice, usePreviewMerchantColumns } from './BatchMerchants';
import { choicesComplete, placedPreview, withAllRows, withRow, type DuplicateChoices } from '../lib/batch-duplicates';
import { BatchDuplicatesNotice, DuplicateRowChoice } from './BatchDuplicatesNotice';
import { BatchRowsTable, type BatchColumn } from './BatchRowsTable';
import { Untranslated } from './MerchantText';
import { BatchOptionProblems } from './BatchOptionProblems';
import { OptionProblemText } from './OptionProblemText';

/** A file cell; one that picked an option shows the option's label, and the cell too when it was written otherwise (§7.11). */
function OptionCell({ cell, label }: { cell: string; label: string | undefined }) {
  const { locale } = useI18n();
  if (label === undefined || label === cell.trim()) return <Untranslated kind="buyer">{cell}</Untranslated>;
  const [open, close] = locale === 'zh-CN' ? ['（', '）'] : [' (', ')'];
  return (
    <span data-testid="batch-option-label">
      <Untranslated>{label}</Untranslated>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {open}
        <Untranslated kind="buyer">{cell}</Untranslated>
        {close}
      </Typography.Text>
    </span>
  );
}

interface Props {
  readonly fileName: string;
  readonly preview: BatchPreviewView;
  readonly busy: boolean;
  /** The buyer's answers to the duplicates found (§13.8); Next waits for all of them. */
  readonly choices: DuplicateChoices;
  onChoices: (choices: DuplicateChoices) => void;
  onMapping: (mapping: Record<string, string>, defaultUnits: number | undefined) => void;
  onBack: () => void;
  onNext: () => void;
}

export function useRowErrorWords(preview: BatchPreviewView): (row: BatchPreviewRow) => ReactNode {
  const { td } = useI18n();
  const labels = new Map(preview.targets.map((target) => [target.target, target.label || target.target]));
  // INVALID_BYTES names where in the file (line, column) the unreadable bytes are.
  const where = (error: BatchPreviewRow['errors'][number]) => ({ line: error.line ?? '', column: error.column ?? '' });
  return (row) =>
    row.errors.map((error, index) => {
      const field = labels.get(error.path) ?? error.path;
      return (
        <span key={index}>
          {index > 0 ? '；' : null}
          {/* A cell naming no option (or several): the cell and the labels to choose from (§7.11). */}
          {error.option !== undefined ? <OptionProblemText problem={{ field, ...error.option }} /> : td(`batch.error.${error.code}`, 'batch.error.other', { field, ...where(error) })}
        </span>
      );
    });
}

function MappingSelects({ preview, busy, onMapping }: Pick<Props, 'preview' | 'busy' | 'onMapping'>) {
  const { t } = useI18n();
  const columns = preview.header.filter((name) => name !== '');
  const change = (target: string, column: string | undefined): void => {
    const next: Record<string, string> = { ...preview.mapping };
    if (column === undefined) delete next[target];
    else next[target] = column;
    onMapping(next, preview.mapping[UNITS_TARGET] === undefined ? preview.defaultUnits : undefined);
  };
  return (
    <div className="batch-mapping" data-testid="batch-mapping">
      {preview.targets.map((target) => (
        <div key={target.target}>
          <Typography.Text>
            {target.target === UNITS_TARGET ? t('batch.unitsTarget') : <Untranslated>{target.label || target.target}</Untranslated>}
            {target.required ? <Tag style={{ marginLeft: 6 }}>{t('batch.required')}</Tag> : null}
          </Typography.Text>
          <Select
            style={{ width: '100%' }}
            allowClear
            disabled={busy}
            value={preview.mapping[target.target]}
            placeholder={t('batch.noColumn')}
            data-testid={`batch-map-${target.target}`}
            options={columns.map((name) => ({ value: name, label: <Untranslated kind="buyer">{name}</Untranslated> }))}
            onChange={(value: string | undefined) => change(target.target, value)}
          />
        </div>
      ))}
      {preview.mapping[UNITS_TARGET] === undefined ? (
        <div>
          <Typography.Text>{t('batch.defaultUnits')}</Typography.Text>
          <InputNumber
            style={{ width: '100%' }}
            min={preview.unitRule.min}
            max={preview.unitRule.max}
            step={preview.unitRule.step}
            value={preview.defaultUnits}
            disabled={busy}
            data-testid="batch-default-units"
            onChange={(value) => {
              if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) onMapping({ ...preview.mapping }, value);
            }}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('batch.unitRule', { min: preview.unitRule.min, max: preview.unitRule.max, step: preview.unitRule.step })}
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}

export function BatchTotals({ preview }: { preview: BatchPreviewView }) {
  const { t } = useI18n();
  const { totals } = preview;
  return (
    <div className="batch-totals" data-testid="batch-totals" data-ok={totals.ok} data-errors={totals.withErrors} data-total-fen={totals.totalFen}>
      <Tag color="success">{t('batch.totalsOk', { count: totals.ok })}</Tag>
      {totals.withErrors > 0 ? <Tag color="error">{t('batch.totalsErrors', { count: totals.withErrors })}</Tag> : null}
      <Typography.Text>{t('batch.totalsUnits', { units: totals.units })}</Typography.Text>
      <Typography.Text strong>{t('batch.totalsAmount', { amount: formatFen(totals.totalFen) })}</Typography.Text>
    </div>
  );
}

/** The file's columns shown beside the check: every mapped one, then others up to MAX_FILE_COLUMNS, each with what it feeds. */
const MAX_FILE_COLUMNS = 6;
function fileColumns(preview: BatchPreviewView): { index: number; name: string; target: string | null }[] {
  const labels = new Map(preview.targets.map((target) => [target.target, target.target === UNITS_TARGET ? null : target.label || target.target]));
  const feeds = new Map<string, string | null>();
  for (const [target, column] of Object.entries(preview.mapping)) feeds.set(column, labels.get(target) ?? null);
  const all = preview.header.map((name, index) => ({ index, name, target: feeds.get(name) ?? null, mapped: feeds.has(name) })).filter((column) => column.name !== '');
  const shown = [...all.filter((column) => column.mapped && column.target !== null), ...all.filter((column) => !column.mapped)].slice(0, MAX_FILE_COLUMNS);
  return shown.sort((a, b) => a.index - b.index).map(({ index, name, target }) => ({ index, name, target }));
}

function encodingWord(t: ReturnType<typeof useI18n>['t'], encoding: string | null): string {
  if (encoding === 'gb18030') return t('batch.encoding.gb18030');
  if (encoding === 'utf-8-bom') return t('batch.encoding.utf-8-bom');
  return t('batch.encoding.utf-8');
}

export function BatchPreviewStep({ fileName, preview, busy, choices, onChoices, onMapping, onBack, onNext }: Props) {
  const { t } = useI18n();
  const sameAs = useMemo(() => new Map(preview.duplicates.rows.map((row) => [row.rowNumber, row.sameAs])), [preview.duplicates.rows]);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const errorWords = useRowErrorWords(preview);
  const merchantColumns = usePreviewMerchantColumns(preview);
  const rows = useMemo(() => (onlyErrors ? preview.rows.filter((row) => row.errors.length > 0) : preview.rows), [onlyErrors, preview.rows]);
  const fieldOf = new Map(Object.entries(preview.mapping).map(([target, column]) => [column, target]));
  const columns: BatchColumn<BatchPreviewRow>[] = [
    { key: 'row', title: t('batch.colRow'), width: '56px', render: (row) => row.rowNumber },
    ...fileColumns(preview).map(({ index, name, target }) => ({
      key: `c${index}`,
      title: (
        <span title={target ?? undefined}>
          <Untranslated kind="buyer">{name}</Untranslated>
          {target !== null ? (
            <Typography.Text type="secondary">
              {' → '}
              <Untranslated>{target}</Untranslated>
            </Typography.Text>
          ) : null}
        </span>
      ),
      width: 'minmax(110px, 1fr)',
      render: (row: BatchPreviewRow) => <OptionCell cell={row.cells[index] ?? ''} label={row.optionLabels?.[fieldOf.get(name) ?? '']} />,
    })),
    { key: 'units', title: t('batch.colUnits'), width: '72px', render: (row) => (row.units === null ? '—' : row.units) },
    ...merchantColumns,
    { key: 'amount', title: t('batch.colAmount'), width: '96px', render: (row) => (row.errors.length === 0 ? formatFen(row.amountFen) : '—') },
    {
      key: 'check',
      title: t('batch.colCheck'),
      width: 'minmax(160px, 1.4fr)',
      render: (row) => {
        const repeats = sameAs.get(row.rowNumber);
        if (repeats !== undefined)
          return <DuplicateRowChoice rowNumber={row.rowNumber} sameAs={repeats} choice={choices.rows.get(row.rowNumber)} busy={busy} onChoice={(choice) => onChoices(withRow(choices, row.rowNumber, choice))} />;
        return row.errors.length === 0 ? <Tag color="success">{t('batch.rowOk')}</Tag> : <Typography.Text type="danger" data-testid="batch-row-error">{errorWords(row)}</Typography.Text>;
      },
    },
  ];
  const format = preview.format === 'xlsx' ? t('batch.encoding.xlsx') : encodingWord(t, preview.encoding);
  return (
    <div data-testid="batch-preview">
      <Typography.Paragraph type="secondary">
        <Untranslated kind="buyer">{fileName}</Untranslated> · {t('batch.fileSummary', { rows: preview.totals.rows, format })}
      </Typography.Paragraph>
      <Typography.Title level={5}>{t('batch.mappingTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary" data-testid="batch-mapping-source" data-source={preview.mappingSource}>
        {t(`batch.mappingSource.${preview.mappingSource}`)}
      </Typography.Paragraph>
      <MappingSelects preview={preview} busy={busy} onMapping={onMapping} />
      {preview.fallback !== undefined ? <BatchFallbackNotice fallback={preview.fallback} unitPriceFen={preview.unitPriceFen} /> : null}
      <BatchDuplicatesNotice
        preview={preview}
        choices={choices}
        busy={busy}
        onAcceptBatches={(accepted) => onChoices({ ...choices, batchesAccepted: accepted })}
        onAllRows={(choice) => onChoices(withAllRows(preview, choices, choice))}
      />
      <BatchTotals preview={placedPreview(preview, choices)} />
      <BatchOptionProblems preview={preview} />
      <Space style={{ marginBottom: 8 }}>
        <Switch size="small" checked={onlyErrors} onChange={setOnlyErrors} data-testid="batch-only-errors" />
        <Typography.Text>{t('batch.onlyErrors')}</Typography.Text>
      </Space>
      <BatchRowsTable rows={rows} columns={columns} rowKey={(row) => String(row.rowNumber)} testId="batch-preview-rows" />
      {preview.totals.ok === 0 ? <Alert type="warning" showIcon style={{ marginTop: 12 }} title={t('batch.noRowsReady')} /> : null}
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <Button onClick={onBack} data-testid="batch-back">
          {t('batch.back')}
        </Button>
        <Button type="primary" disabled={busy || preview.totals.ok === 0 || !choicesComplete(preview, choices) || placedPreview(preview, choices).totals.ok === 0} onClick={onNext} data-testid="batch-next">
          {t('batch.next')}
        </Button>
      </div>
    </div>
  );
}
