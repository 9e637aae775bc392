// One purchase field, by its type (contract §5: text, mobile, email, integer, select), with its
// inline error once the buyer has left it or tried to send. No box caps its length: the limit applies
// to the cleaned value (`9876 5432 1098` is a 12-digit QQ number), and a value too long is an error
// naming the limit, never cut off silently.
import { Form, Input, Select } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { fieldErrorText } from '../lib/field-error-text';
import type { FieldError } from '../lib/purchase-validation';
import type { FieldModel } from '../lib/template-form';
import { Untranslated, WithMerchantData } from './MerchantText';

/** The merchant's words an error can quote: the label, the placeholder, the pattern. */
const merchantWords = (field: FieldModel): (string | null)[] => [field.label, field.placeholder, field.expected?.kind === 'pattern' ? field.expected.source : null];

interface Props {
  readonly field: FieldModel;
  readonly index: number;
  readonly value: string;
  readonly error: FieldError | undefined;
  readonly showError: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
}

export function PurchaseFieldInput({ field, index, value, error, showError, onChange, onBlur }: Props) {
  const { t } = useI18n();
  const id = `order-field-${index}-${field.fieldRef}`;
  const visibleError = showError && error !== undefined ? fieldErrorText(t, field.label, error) : undefined;
  const label = field.required ? field.label : `${field.label} (${t('order.optional')})`;
  const common = { id, 'data-testid': id, status: visibleError === undefined ? undefined : ('error' as const), onBlur };
  // The merchant's template words the fields (labels, placeholders, options): shown as theirs, marked.
  const merchantText = { translate: 'no' as const, 'data-untranslated': 'merchant' };
  let control;
  switch (field.type) {
    case 'select':
      control = (
        <Select<string>
          {...common}
          value={value === '' ? undefined : value}
          placeholder={field.placeholder !== null ? <Untranslated>{field.placeholder}</Untranslated> : t('order.selectPlaceholder')}
          options={field.options.map((option) => ({ value: option.value, label: option.label }))}
          labelRender={(selected) => <Untranslated>{selected.label}</Untranslated>}
          optionRender={(option) => <Untranslated>{option.label}</Untranslated>}
          onChange={(next) => onChange(next)}
        />
      );
      break;
    case 'mobile':
      control = <Input {...common} {...merchantText} type="tel" inputMode="tel" autoComplete="off" placeholder={field.placeholder ?? undefined} value={value} onChange={(event) => onChange(event.target.value)} />;
      break;
    case 'email':
      control = <Input {...common} {...merchantText} type="email" autoComplete="off" placeholder={field.placeholder ?? undefined} value={value} onChange={(event) => onChange(event.target.value)} />;
      break;
    case 'integer':
      control = <Input {...common} {...merchantText} inputMode="numeric" autoComplete="off" placeholder={field.placeholder ?? undefined} value={value} onChange={(event) => onChange(event.target.value)} />;
      break;
    case 'text':
      control = <Input {...common} {...merchantText} autoComplete="off" placeholder={field.placeholder ?? undefined} value={value} onChange={(event) => onChange(event.target.value)} />;
      break;
  }
  return (
    <Form.Item
      label={<WithMerchantData text={label} data={[field.label]} />}
      htmlFor={id}
      required={field.required}
      validateStatus={visibleError === undefined ? undefined : 'error'}
      help={visibleError === undefined ? (field.sensitive ? t('order.sensitive') : undefined) : <span data-testid="order-field-error"><WithMerchantData text={visibleError} data={merchantWords(field)} /></span>}
      style={{ marginBottom: 12 }}
    >
      {control}
    </Form.Item>
  );
}
