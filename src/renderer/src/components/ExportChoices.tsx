// The export dialog's two choices: which cards (selected ones, an order, a product, a date range, or
// everything not yet exported) and the file format (encrypted XLSX or ZIP, or a plain CSV that names its
// risk). Their state stays in the dialog (ExportDialog); these show it and report the buyer's picks.
import { Form, Input, Radio, Select, Space, Typography } from 'antd';
import { EXPORT_FORMATS, type CardSelection, type ExportFormat } from '../../../shared/ipc/views/vault';
import { useI18n } from '../i18n/use-i18n';

export type ExportWhat = CardSelection['kind'];

export interface Choice<V> {
  readonly value: V;
  readonly label: string;
}

const WHATS: readonly ExportWhat[] = ['cards', 'order', 'product', 'dateRange', 'notExported'];
/** antd's radio events carry an untyped value: matched back to the known choices. */
const whatOf = (value: unknown): ExportWhat | undefined => WHATS.find((w) => w === value);
const formatOf = (value: unknown): ExportFormat | undefined => EXPORT_FORMATS.find((f) => f === value);

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

export function ExportFormatChoice({ format, onFormat }: { readonly format: ExportFormat; readonly onFormat: (format: ExportFormat) => void }) {
  const { t } = useI18n();
  return (
    <Form.Item label={t('export.format')}>
      <Radio.Group value={format} onChange={(e) => onFormat(formatOf(e.target.value) ?? format)}>
        <Space orientation="vertical">
          <Radio value="xlsx">
            <span data-testid="export-format-xlsx">{t('export.format.xlsx')}</span>
            <div>
              <Typography.Text type="secondary">{t('export.format.xlsx.hint')}</Typography.Text>
            </div>
          </Radio>
          <Radio value="zip">
            <span data-testid="export-format-zip">{t('export.format.zip')}</span>
            <div>
              <Typography.Text type="secondary">{t('export.format.zip.hint')}</Typography.Text>
            </div>
          </Radio>
          <Radio value="csv">
            <span data-testid="export-format-csv">{t('export.format.csv')}</span>
            <div>
              <Typography.Text type="danger">{t('export.format.csv.hint')}</Typography.Text>
            </div>
          </Radio>
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}
