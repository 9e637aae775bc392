// The export dialog's choices: which cards (selected ones, an order, a product, a date range, or
// everything not yet exported), the file (encrypted XLSX, an encrypted ZIP of a CSV or a TXT, or a plain
// CSV or TXT that names its risk) and a TXT's lines. Their state stays in the dialog (ExportDialog);
// these show it and report the buyer's picks.
import { Form, Input, Radio, Select, Space, Typography } from 'antd';
import { EXPORT_TXT_LINES, type CardSelection, type ExportFormat, type ExportTxtLines } from '../../../shared/ipc/views/vault';
import { useI18n } from '../i18n/use-i18n';

export type ExportWhat = CardSelection['kind'];

export interface Choice<V> {
  readonly value: V;
  readonly label: string;
}

const WHATS: readonly ExportWhat[] = ['cards', 'order', 'product', 'dateRange', 'notExported'];
/** antd's radio events carry an untyped value: matched back to the known choices. */
const whatOf = (value: unknown): ExportWhat | undefined => WHATS.find((w) => w === value);

/** The files the dialog offers: the contract's formats, the ZIP once with the CSV and once with the TXT. */
const FILE_CHOICES = ['xlsx', 'zip', 'zipTxt', 'csv', 'txt'] as const;
export type FileChoice = (typeof FILE_CHOICES)[number];
const choiceOf = (value: unknown): FileChoice | undefined => FILE_CHOICES.find((f) => f === value);
const linesOf = (value: unknown): ExportTxtLines | undefined => EXPORT_TXT_LINES.find((l) => l === value);

const isTxtChoice = (choice: FileChoice): boolean => choice === 'zipTxt' || choice === 'txt';

/** The request's part for a choice: the contract's format, and the lines when it is a TXT (the ZIP then holds the TXT). */
export function fileRequest(choice: FileChoice, lines: ExportTxtLines): { format: ExportFormat; txtLines?: ExportTxtLines } {
  const format = choice === 'zipTxt' ? 'zip' : choice;
  return isTxtChoice(choice) ? { format, txtLines: lines } : { format };
}
export const isEncryptedChoice = (choice: FileChoice): boolean => choice !== 'csv' && choice !== 'txt';

export interface ExportWhatChoiceProps {
  readonly what: ExportWhat;
  readonly onWhat: (what: ExportWhat) => void;
  /** Cards ticked in the vault list: "selected cards" is offered only with some. */
  readonly selectedCount: number;
  readonly orders: readonly Choice<string>[];
  readonly orderRef: string | null;
  readonly onOrderRef: (ref: string) => void;
  readonly products: readonly Choice<number>[];
  readonly productRef: number | null;
  readonly onProductRef: (ref: number) => void;
  /** Local days (YYYY-MM-DD) of a date range, both included. */
  readonly fromDay: string;
  readonly onFromDay: (day: string) => void;
  readonly toDay: string;
  readonly onToDay: (day: string) => void;
}

export function ExportWhatChoice(props: ExportWhatChoiceProps) {
  const { what, onWhat, selectedCount, orders, orderRef, onOrderRef, products, productRef, onProductRef, fromDay, onFromDay, toDay, onToDay } = props;
  const { t } = useI18n();
  return (
    <Form.Item label={t('export.what')}>
      <Radio.Group value={what} onChange={(e) => onWhat(whatOf(e.target.value) ?? what)}>
        <Space orientation="vertical">
          <Radio value="cards" disabled={selectedCount === 0}>
            <span data-testid="export-what-cards">{t('export.what.cards', { count: selectedCount })}</span>
          </Radio>
          <Radio value="order">
            <span data-testid="export-what-order">{t('export.what.order')}</span>
          </Radio>
          {what === 'order' ? (
            <Select<string>
              data-testid="export-order"
              style={{ width: 460 }}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('vaultList.pickOrder')}
              value={orderRef ?? undefined}
              onChange={onOrderRef}
              options={orders.map((o) => ({ value: o.value, label: o.label }))}
            />
          ) : null}
          <Radio value="product">
            <span data-testid="export-what-product">{t('export.what.product')}</span>
          </Radio>
          {what === 'product' ? (
            <Select<number>
              data-testid="export-product"
              style={{ width: 460 }}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('vaultList.pickProduct')}
              value={productRef ?? undefined}
              onChange={onProductRef}
              options={products.map((p) => ({ value: p.value, label: p.label }))}
            />
          ) : null}
          <Radio value="dateRange">
            <span data-testid="export-what-dateRange">{t('export.what.dateRange')}</span>
          </Radio>
          {what === 'dateRange' ? (
            <Space>
              <Input type="date" value={fromDay} onChange={(e) => onFromDay(e.target.value)} aria-label={t('vaultList.from')} data-testid="export-from" />
              <Input type="date" value={toDay} onChange={(e) => onToDay(e.target.value)} aria-label={t('vaultList.to')} data-testid="export-to" />
            </Space>
          ) : null}
          <Radio value="notExported">
            <span data-testid="export-what-notExported">{t('export.what.notExported')}</span>
          </Radio>
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}

/** One file choice: its name and a hint, the plain ones' hint in the danger colour. */
function FileRadio({ value, hint, danger }: { readonly value: FileChoice; readonly hint: string; readonly danger?: boolean }) {
  const { t } = useI18n();
  return (
    <Radio value={value}>
      <span data-testid={`export-format-${value}`}>{t(`export.format.${value}`)}</span>
      <div>
        <Typography.Text type={danger === true ? 'danger' : 'secondary'}>{hint}</Typography.Text>
      </div>
    </Radio>
  );
}

export interface ExportFileChoiceProps {
  readonly choice: FileChoice;
  readonly onChoice: (choice: FileChoice) => void;
  readonly lines: ExportTxtLines;
  readonly onLines: (lines: ExportTxtLines) => void;
}

/** The file and, for a TXT, its lines. */
export function ExportFileChoice({ choice, onChoice, lines, onLines }: ExportFileChoiceProps) {
  return (
    <>
      <ExportFormatChoice choice={choice} onChoice={onChoice} />
      {isTxtChoice(choice) ? <ExportTxtLinesChoice lines={lines} onLines={onLines} /> : null}
    </>
  );
}

function ExportFormatChoice({ choice, onChoice }: { readonly choice: FileChoice; readonly onChoice: (choice: FileChoice) => void }) {
  const { t } = useI18n();
  return (
    <Form.Item label={t('export.format')}>
      <Radio.Group value={choice} onChange={(e) => onChoice(choiceOf(e.target.value) ?? choice)}>
        <Space orientation="vertical">
          <FileRadio value="xlsx" hint={t('export.format.xlsx.hint')} />
          <FileRadio value="zip" hint={t('export.format.zip.hint')} />
          <FileRadio value="zipTxt" hint={t('export.format.zip.hint')} />
          <FileRadio value="csv" hint={t('export.format.csv.hint')} danger />
          <FileRadio value="txt" hint={t('export.format.csv.hint')} danger />
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}

/** A TXT's lines: the card number alone, or `卡号 卡密`; and what the file can and cannot carry. */
function ExportTxtLinesChoice({ lines, onLines }: { readonly lines: ExportTxtLines; readonly onLines: (lines: ExportTxtLines) => void }) {
  const { t } = useI18n();
  return (
    <Form.Item label={t('export.txtLines')} extra={t('export.txtLines.hint')}>
      <Radio.Group value={lines} onChange={(e) => onLines(linesOf(e.target.value) ?? lines)}>
        <Space orientation="vertical">
          {EXPORT_TXT_LINES.map((value) => (
            <Radio key={value} value={value}>
              <span data-testid={`export-txt-lines-${value}`}>{t(`export.txtLines.${value}`)}</span>
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}
