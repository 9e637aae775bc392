// "给技术人员" / "For technical staff": developer instructions (a command, an environment variable)
// folded away under the buyer's words, so a buyer's screen speaks to the buyer and still carries the
// note to pass on. Commands show as code, marked not to be translated, never as literal backticks.
import { Collapse, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { Untranslated } from './MerchantText';

export function ForTechnicalStaff({ testId, children }: { testId: string; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <Collapse
      ghost
      size="small"
      className="for-technical-staff"
      data-testid={testId}
      items={[{ key: 'technical', label: <span data-testid={`${testId}-toggle`}>{t('techDetail.title')}</span>, children }]}
    />
  );
}

/** A sentence with code in it, filled with codeSlot(n) for the n-th code: codes as code, the words as they are. */
export function WordsWithCode({ text, codes }: { text: string; codes: readonly string[] }) {
  const parts = text.split(/\uE000(\d)/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <Untranslated key={index} kind="technical">
            <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
              {codes[Number(part)]}
            </Typography.Text>
          </Untranslated>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** What fills the n-th code's placeholder before WordsWithCode shows the sentence. */
export function codeSlot(index: number): string {
  return `\uE000${index}`;
}
