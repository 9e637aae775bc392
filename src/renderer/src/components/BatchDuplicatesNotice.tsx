// Duplicates in a batch before money moves (contract §13.8): a file already placed, named with when
// and which batch, needing the buyer's tick; rows identical to an earlier row, each to be ordered as
// well or skipped (or all at once); and the same answers repeated on the confirmation.
import { Alert, Button, Checkbox, Descriptions, Radio, Space, Tag, Typography } from 'antd';
import type { BatchPlacedBeforeView, BatchPreviewView } from '../../../shared/ipc/views/batch';
import { useI18n } from '../i18n/use-i18n';
import { undecidedRows, type DuplicateChoices, type RowChoice } from '../lib/batch-duplicates';
import { formatSeconds } from '../lib/format-time';
import { Untranslated } from './MerchantText';

const BATCH = '\u0001';
const FILE = '\u0002';

/** The text cut at each mark, the marks kept as pieces of their own. */
function splitMarks(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const char of text) {
    if (char !== BATCH && char !== FILE) {
      current += char;
      continue;
    }
    parts.push(current, char);
    current = '';
  }
  parts.push(current);
  return parts;
}

/** "The same file was placed on … as batch b_… (name.csv)": the ref and the file name marked as not ours to translate. */
function PlacedBeforeLine({ batch }: { batch: BatchPlacedBeforeView }) {
  const { t, locale } = useI18n();
  const text = t(`batchDup.placedBefore.${batch.match}`, { time: formatSeconds(batch.placedAt, locale), batchId: BATCH, fileName: FILE });
  const parts = splitMarks(text);
  return (
    <li data-testid="batch-placed-before-item" data-batch-id={batch.batchId} data-match={batch.match} data-placed-at={batch.placedAt}>
      {parts.map((part, index) => {
        if (part === BATCH) return <Untranslated key={index} kind="reference">{batch.batchId}</Untranslated>;
        if (part === FILE) return <Untranslated key={index} kind="buyer">{batch.fileName}</Untranslated>;
        return part;
      })}
    </li>
  );
}

export function PlacedBeforeList({ preview }: { preview: BatchPreviewView }) {
  return (
    <ul className="batch-placed-before">
      {preview.duplicates.placedBefore.map((batch) => (
        <PlacedBeforeLine key={`${batch.batchId}:${batch.match}`} batch={batch} />
      ))}
    </ul>
  );
}

interface NoticeProps {
  readonly preview: BatchPreviewView;
  readonly choices: DuplicateChoices;
  readonly busy: boolean;
  onAcceptBatches: (accepted: boolean) => void;
  onAllRows: (choice: RowChoice) => void;
}

/** Above the rows: what was found, and the answers it needs before the buyer can go on. */
export function BatchDuplicatesNotice({ preview, choices, busy, onAcceptBatches, onAllRows }: NoticeProps) {
  const { t } = useI18n();
  const { rows, placedBefore } = preview.duplicates;
  const open = undecidedRows(preview, choices);
  return (
    <>
      {placedBefore.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="batch-placed-before"
          title={t('batchDup.placedBeforeTitle')}
          description={
            <>
              <PlacedBeforeList preview={preview} />
              <Checkbox checked={choices.batchesAccepted} disabled={busy} onChange={(event) => onAcceptBatches(event.target.checked)} data-testid="batch-placed-before-ok">
                {t('batchDup.placedBeforeOk')}
              </Checkbox>
              {choices.batchesAccepted ? null : (
                <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 4, marginBottom: 0 }} data-testid="batch-placed-before-needed">
                  {t('batchDup.confirmAgainNeeded')}
                </Typography.Paragraph>
              )}
            </>
          }
        />
      ) : null}
      {rows.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="batch-duplicate-rows"
          data-rows={rows.length}
          data-undecided={open}
          title={t('batchDup.rowsTitle', { count: rows.length })}
          description={
            <Space direction="vertical" size={6}>
              <Typography.Text>{t('batchDup.rowsHint')}</Typography.Text>
              <Space wrap>
                <Button size="small" disabled={busy} onClick={() => onAllRows('keep')} data-testid="batch-dup-keep-all">
                  {t('batchDup.keepAll')}
                </Button>
                <Button size="small" disabled={busy} onClick={() => onAllRows('skip')} data-testid="batch-dup-skip-all">
                  {t('batchDup.skipAll')}
                </Button>
                {open > 0 ? <Typography.Text type="warning">{t('batchDup.undecided', { count: open })}</Typography.Text> : null}
              </Space>
            </Space>
          }
        />
      ) : null}
    </>
  );
}

/** The check cell of a duplicate row: which row it repeats, and the buyer's choice for it. */
export function DuplicateRowChoice({ rowNumber, sameAs, choice, busy, onChoice }: { rowNumber: number; sameAs: number; choice: RowChoice | undefined; busy: boolean; onChoice: (choice: RowChoice) => void }) {
  const { t } = useI18n();
  return (
    <Space size={4} data-testid="batch-dup-row" data-row={rowNumber} data-same-as={sameAs} data-choice={choice ?? 'undecided'}>
      <Tag color="warning">{t('batchDup.sameAs', { row: sameAs })}</Tag>
      <Radio.Group size="small" optionType="button" disabled={busy} value={choice} onChange={(event) => onChoice(event.target.value === 'skip' ? 'skip' : 'keep')}>
        <Radio.Button value="keep" data-testid="batch-dup-keep">
          {t('batchDup.keep')}
        </Radio.Button>
        <Radio.Button value="skip" data-testid="batch-dup-skip">
          {t('batchDup.skip')}
        </Radio.Button>
      </Radio.Group>
    </Space>
  );
}

/** On the confirmation: the duplicate rows kept and skipped, and the earlier batches the buyer confirmed. */
export function BatchDuplicatesSummary({ preview, choices }: { preview: BatchPreviewView; choices: DuplicateChoices }) {
  const { t } = useI18n();
  const list = (numbers: number[]): string => t('batchDup.rowList', { rows: numbers.join(t('join.list')) });
  const { rows, placedBefore } = preview.duplicates;
  if (rows.length === 0 && placedBefore.length === 0) return null;
  const kept = rows.filter((row) => choices.rows.get(row.rowNumber) === 'keep').map((row) => row.rowNumber);
  const skipped = rows.filter((row) => choices.rows.get(row.rowNumber) === 'skip').map((row) => row.rowNumber);
  return (
    <Descriptions bordered size="small" column={1} style={{ marginBottom: 12 }} data-testid="batch-confirm-duplicates" data-kept={kept.length} data-skipped={skipped.length}>
      {placedBefore.length > 0 ? (
        <Descriptions.Item label={t('batchDup.confirmPlacedBefore')}>
          <PlacedBeforeList preview={preview} />
        </Descriptions.Item>
      ) : null}
      {kept.length > 0 ? <Descriptions.Item label={t('batchDup.confirmKept')}>{list(kept)}</Descriptions.Item> : null}
      {skipped.length > 0 ? <Descriptions.Item label={t('batchDup.confirmSkipped')}>{list(skipped)}</Descriptions.Item> : null}
    </Descriptions>
  );
}
