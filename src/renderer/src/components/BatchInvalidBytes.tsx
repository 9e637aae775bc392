// A batch CSV holding bytes that are not valid text (issue 25, contract §13.1): the refusal, naming the
// encoding, the line and column of the first and how many rows hold them, with the buyer's choice to go
// on with those rows marked as errors (never ordered); and, once chosen, the preview's reminder.
import { Alert, Button } from 'antd';
import type { BatchPreviewView } from '../../../shared/ipc/views/batch';
import { useI18n } from '../i18n/use-i18n';

/** The refusal's facts, as core sends them (`file.KEY` fields of INVALID_INPUT). */
export interface InvalidBytesFacts {
  readonly encoding: string;
  readonly line: number;
  readonly column: number;
  readonly rows: number;
  readonly header: boolean;
}

const ENCODING_NAMES: Record<string, string> = { 'utf-8': 'UTF-8', gb18030: 'GB18030' };

export function invalidBytesFacts(fields: readonly { path: string; message: string }[]): InvalidBytesFacts {
  const fact = (key: string): string => fields.find((field) => field.path === `file.${key}`)?.message ?? '';
  return { encoding: ENCODING_NAMES[fact('encoding')] ?? fact('encoding'), line: Number(fact('line')), column: Number(fact('column')), rows: Number(fact('rows')), header: fact('header') === 'true' };
}

export function InvalidBytesRefusal({ facts, busy, onMark }: { facts: InvalidBytesFacts; busy: boolean; onMark: () => void }) {
  const { t } = useI18n();
  const words = { encoding: facts.encoding, line: facts.line, column: facts.column, rows: facts.rows };
  if (facts.header) return <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('batchBytes.header', words)} data-testid="batch-file-problem" data-problem="invalidBytes" data-header="true" />;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginTop: 12 }}
      title={t('batch.file.invalidBytes', words)}
      description={t('batchBytes.hint')}
      data-testid="batch-file-problem"
      data-problem="invalidBytes"
      action={
        <Button size="small" disabled={busy} loading={busy} onClick={onMark} data-testid="batch-mark-invalid-rows">
          {t('batchBytes.mark')}
        </Button>
      }
    />
  );
}

export function InvalidBytesNotice({ preview }: { preview: BatchPreviewView }) {
  const { t } = useI18n();
  if (preview.invalidBytes === undefined) return null;
  const encoding = ENCODING_NAMES[preview.invalidBytes.encoding] ?? preview.invalidBytes.encoding;
  return <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('batchBytes.marked', { rows: preview.invalidBytes.rows, encoding })} data-testid="batch-invalid-rows-notice" data-rows={preview.invalidBytes.rows} />;
}
