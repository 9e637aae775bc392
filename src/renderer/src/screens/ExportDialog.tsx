// The export dialog: what (selected cards, an order, a product, a date range, everything not yet
// exported) with the count and value counted by main before anything is written; the file
// (password-protected XLSX by default, an encrypted ZIP of a CSV or of a TXT of codes, or a plain CSV
// or TXT only after ticking the box that names the risk; a TXT's lines: 卡号, or 卡号 卡密); the password typed twice with the shared strength rule's meter; then progress
// and where the file went. A selection holding cards of refunded or cancelled orders says how many,
// and exports only after the buyer ticks that they go on (core refuses otherwise; the file marks
// them in its refund column). The password lives in this dialog's state only, is cleared once sent,
// and is dropped when the dialog closes (destroyOnHidden).
import { Alert, Button, Checkbox, Divider, Form, Input, Modal, Space, Spin } from 'antd';
import { useState } from 'react';
import type { CardKey, CardSelection, ExportResult, ExportTxtLines } from '../../../shared/ipc/views/vault';
import { checkExportPassword } from '../../../shared/password-policy';
import { ExportFileChoice, ExportWhatChoice, fileRequest, isEncryptedChoice, type Choice, type ExportWhat, type FileChoice } from '../components/ExportChoices';
import { ExportOutcome } from '../components/ExportOutcome';
import { startBrowserDownload } from '../lib/browser-download';
import { PasswordStrength } from '../components/PasswordStrength';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { dayRange } from '../lib/day-range';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { useExportCards, useExportPreview } from '../queries/vault-export';

export interface ExportDefaults {
  readonly what: ExportWhat;
  readonly orderRef: string | null;
  readonly productRef: number | null;
  readonly fromDay: string;
  readonly toDay: string;
}

interface ExportDialogProps {
  readonly open: boolean;
  readonly onClose: () => void;
  readonly selectedCards: readonly CardKey[];
  readonly defaults: ExportDefaults;
  readonly orders: readonly Choice<string>[];
  readonly products: readonly Choice<number>[];
}

function selectionOf(what: ExportWhat, state: { cards: readonly CardKey[]; orderRef: string | null; productRef: number | null; fromDay: string; toDay: string }): CardSelection | null {
  switch (what) {
    case 'cards':
      return state.cards.length === 0 ? null : { kind: 'cards', cards: [...state.cards] };
    case 'order':
      return state.orderRef === null ? null : { kind: 'order', clientOrderRef: state.orderRef };
    case 'product':
      return state.productRef === null ? null : { kind: 'product', productRef: state.productRef };
    case 'dateRange': {
      const range = dayRange(state.fromDay, state.toDay);
      return range === null ? null : { kind: 'dateRange', ...range };
    }
    case 'notExported':
      return { kind: 'notExported' };
  }
}

export function ExportDialog({ open, onClose, selectedCards, defaults, orders, products }: ExportDialogProps) {
  const { t } = useI18n();
  return (
    <Modal open={open} onCancel={onClose} footer={null} width={640} destroyOnHidden title={t('export.title')} data-testid="export-dialog" maskClosable={false}>
      <ExportForm onClose={onClose} selectedCards={selectedCards} defaults={defaults} orders={orders} products={products} />
    </Modal>
  );
}

function ExportForm({ onClose, selectedCards, defaults, orders, products }: Omit<ExportDialogProps, 'open'>) {
  const { t, locale } = useI18n();
  const [what, setWhat] = useState<ExportWhat>(defaults.what);
  const [orderRef, setOrderRef] = useState<string | null>(defaults.orderRef);
  const [productRef, setProductRef] = useState<number | null>(defaults.productRef);
  const [fromDay, setFromDay] = useState(defaults.fromDay);
  const [toDay, setToDay] = useState(defaults.toDay);
  const [choice, setChoice] = useState<FileChoice>('xlsx');
  const [txtLines, setTxtLines] = useState<ExportTxtLines>('cardNo');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [acceptPlain, setAcceptPlain] = useState(false);
  /** The selection the buyer ticked "export refunded cards anyway" for: another choice asks again. */
  const [refundedAcceptedFor, setRefundedAcceptedFor] = useState<string | null>(null);
  const [result, setResult] = useState<ExportResult | null>(null);
  const exportCards = useExportCards();

  const selection = selectionOf(what, { cards: selectedCards, orderRef, productRef, fromDay, toDay });
  const preview = useExportPreview(selection);
  const count = preview.data?.count ?? 0;
  const refunded = preview.data?.refunded ?? 0;
  const selectionKey = JSON.stringify(selection);
  const acceptRefunded = refundedAcceptedFor === selectionKey;
  const encrypted = isEncryptedChoice(choice);
  const verdict = checkExportPassword(password);
  const mismatch = confirm !== '' && confirm !== password;
  const ready =
    selection !== null && count > 0 && (refunded === 0 || acceptRefunded) && (encrypted ? verdict.ok && confirm === password : acceptPlain) && !exportCards.isPending;

  const submit = (): void => {
    if (selection === null) return;
    exportCards.mutate(
      {
        selection,
        ...fileRequest(choice, txtLines),
        language: locale,
        ...(encrypted ? { password, passwordConfirm: confirm } : { acceptPlainText: acceptPlain }),
        ...(refunded > 0 && acceptRefunded ? { acknowledgeRefunded: true } : {}),
      },
      {
        onSuccess: (answer) => {
          // The web host answers with a one-time address: the browser saves the file from it now.
          if (answer.status === 'written' && answer.downloadUrl !== undefined) startBrowserDownload(answer.downloadUrl, answer.fileName);
          setResult(answer);
          // Sent once; not kept for a second export or a re-render.
          setPassword('');
          setConfirm('');
        },
      },
    );
  };

  if (result !== null) {
    return <ExportOutcome result={result} onClose={onClose} />;
  }

  if (exportCards.isPending) {
    return (
      <div className="export-progress" data-testid="export-progress" style={{ textAlign: 'center', padding: 32 }}>
        <Spin size="large" />
        <div style={{ marginTop: 16 }}>{t('export.writing')}</div>
      </div>
    );
  }

  return (
    <Form layout="vertical" data-testid="export-form" onFinish={submit}>
      <ExportWhatChoice
        what={what}
        onWhat={setWhat}
        selectedCount={selectedCards.length}
        orders={orders}
        orderRef={orderRef}
        onOrderRef={setOrderRef}
        products={products}
        productRef={productRef}
        onProductRef={setProductRef}
        fromDay={fromDay}
        onFromDay={setFromDay}
        toDay={toDay}
        onToDay={setToDay}
      />

      <div data-testid="export-preview" data-count={preview.data?.count ?? ''} data-value={preview.data?.totalValueFen ?? ''} data-refunded={preview.data?.refunded ?? ''}>
        {preview.data !== undefined && preview.data !== null ? (
          count === 0 ? (
            <Alert type="warning" showIcon title={t('export.previewNone')} />
          ) : (
            <Alert
              type="info"
              showIcon
              title={t('export.preview', { count, value: formatFen(preview.data.totalValueFen), orders: preview.data.orders })}
              description={preview.data.alreadyExported > 0 ? t('export.previewAlready', { count: preview.data.alreadyExported }) : undefined}
            />
          )
        ) : selection !== null ? (
          <Spin size="small" />
        ) : null}
      </div>
      {count > 0 && refunded > 0 ? (
        <Alert
          style={{ marginTop: 8 }}
          type="warning"
          showIcon
          data-testid="export-refunded"
          title={t('export.previewRefunded', { count: refunded })}
          description={
            <Checkbox checked={acceptRefunded} onChange={(e) => setRefundedAcceptedFor(e.target.checked ? selectionKey : null)} data-testid="export-accept-refunded">
              {t('export.acceptRefunded')}
            </Checkbox>
          }
        />
      ) : null}
      {preview.error !== null ? <ProblemAlert explained={explainError(preview.error)} /> : null}

      <Divider />
      <ExportFileChoice choice={choice} onChoice={setChoice} lines={txtLines} onLines={setTxtLines} />

      {encrypted ? (
        <>
          <Form.Item label={t('export.password')} extra={t('export.passwordHelp')}>
            <Input.Password value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" maxLength={256} data-testid="export-password" />
          </Form.Item>
          <PasswordStrength password={password} />
          <Form.Item
            label={t('export.passwordConfirm')}
            validateStatus={mismatch ? 'error' : undefined}
            help={mismatch ? <span data-testid="export-password-mismatch">{t('export.passwordMismatch')}</span> : undefined}
            style={{ marginTop: 16 }}
          >
            <Input.Password value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="new-password" maxLength={256} data-testid="export-password-confirm" />
          </Form.Item>
        </>
      ) : (
        <Alert
          type="error"
          showIcon
          title={t('export.format.csv.hint')}
          description={
            <Checkbox checked={acceptPlain} onChange={(e) => setAcceptPlain(e.target.checked)} data-testid="export-accept-plain">
              {t('export.acceptPlain')}
            </Checkbox>
          }
        />
      )}

      {exportCards.error !== null ? (
        <div style={{ marginTop: 16 }}>
          <ProblemAlert explained={explainError(exportCards.error)} testId="export-problem" />
        </div>
      ) : null}

      <Space style={{ marginTop: 24, width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onClose} data-testid="export-cancel">
          {t('export.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" disabled={!ready} data-testid="export-submit">
          {t('export.submit')}
        </Button>
      </Space>
    </Form>
  );
}
