// The facts under a failure's explanation: which fields were refused (named in the buyer's words),
// the merchant's code with what it means, the request ID for support, and core's technical text —
// the only raw English, kept to one marked "details" line.
import { Typography } from 'antd';
import { useI18n, type I18n } from '../i18n/use-i18n';
import type { Explained } from '../lib/explain-error';
import { Untranslated } from './MerchantText';

/** `purchaseEntries[0].account` → the words for `purchaseEntries`. */
export function fieldLabel(path: string, { td }: Pick<I18n, 'td'>): string {
  const head = path.split(/[.[]/)[0] ?? '';
  return td(`fieldName.${head}`, 'fieldName.other');
}

export function merchantCodeLine(code: number, { t, td }: Pick<I18n, 't' | 'td'>): string {
  return t('merchantError.line', { code, words: td(`merchantError.${code}`, 'merchantError.unknown') });
}

export function ProblemFacts({ explained, technical }: { explained: Explained; technical: boolean }) {
  const i18n = useI18n();
  const { t } = i18n;
  const fieldText = explained.fields.map((field) => t('join.labelValue', { label: field.path, value: field.message })).join(t('join.clauses'));
  const detail = [technical ? explained.detail : '', fieldText].filter((part) => part !== '').join(' — ');
  return (
    <>
      {explained.fields.map((field) => (
        <div key={field.path} data-testid="problem-field" data-path={field.path}>
          <Typography.Text type="secondary">{t('problem.field', { field: fieldLabel(field.path, i18n) })}</Typography.Text>
        </div>
      ))}
      {explained.merchantCode !== null ? (
        <div>
          <Typography.Text type="secondary" data-testid="problem-merchant-code">
            {merchantCodeLine(explained.merchantCode, i18n)}
          </Typography.Text>
        </div>
      ) : null}
      {explained.requestId !== null ? (
        <div>
          <Typography.Text type="secondary">
            {t('common.requestId', { id: '' })}
            <Untranslated>{explained.requestId}</Untranslated>
          </Typography.Text>
        </div>
      ) : null}
      {detail !== '' ? (
        <div>
          <Typography.Text type="secondary" data-testid="problem-technical">
            {t('problem.technical', { detail: '' })}
            <Untranslated kind="technical">{detail}</Untranslated>
          </Typography.Text>
        </div>
      ) : null}
    </>
  );
}
