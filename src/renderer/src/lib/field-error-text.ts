// A purchase field's error in the buyer's language. A pattern problem says what a valid value looks
// like (shared/purchase-field-format.ts): "QQ号码：5–12 位数字，不以 0 开头", else the merchant's
// placeholder as a hint, else the pattern itself; never a bare "not in the expected format".
import type { MessageKey } from '../i18n/messages-en';
import type { Params } from '../i18n/translate';
import type { ExpectedFormat } from '../../../shared/purchase-field-format';
import type { FieldError } from './purchase-validation';

type Translate = (key: MessageKey, params?: Params) => string;

function digitsText(t: Translate, format: Extract<ExpectedFormat, { kind: 'digits' }>): string {
  if (format.max === null) return t(format.leadingZero ? 'fieldFormat.digitsAtLeast' : 'fieldFormat.digitsAtLeastNoZero', { min: format.min });
  if (format.max === format.min) return t(format.leadingZero ? 'fieldFormat.digitsExact' : 'fieldFormat.digitsExactNoZero', { count: format.min });
  return t(format.leadingZero ? 'fieldFormat.digitsRange' : 'fieldFormat.digitsRangeNoZero', { min: format.min, max: format.max });
}

/** The expected format after the field's label. */
export function expectedFormatText(t: Translate, label: string, format: ExpectedFormat): string {
  switch (format.kind) {
    case 'digits':
      return t('fieldFormat.expected', { label, format: digitsText(t, format) });
    case 'mobile':
    case 'email':
    case 'integer':
      return t('fieldFormat.expected', { label, format: t(`fieldFormat.${format.kind}`) });
    case 'placeholder':
      return t('fieldFormat.hint', { label, hint: format.text });
    case 'pattern':
      return t('fieldFormat.pattern', { label, pattern: format.source });
  }
}

export function fieldErrorText(t: Translate, label: string, error: FieldError): string {
  switch (error.code) {
    case 'tooShort':
    case 'tooLong':
      return t(`field.${error.code}`, { limit: error.limit });
    case 'pattern':
      return expectedFormatText(t, label, error.expected);
    default:
      return t(`field.${error.code}`);
  }
}
