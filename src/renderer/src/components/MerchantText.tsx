// Text that is not ours to translate: the merchant's data (product, brand and category names, order
// numbers, request IDs, its own messages) and core's technical lines. Marked `translate="no"` with
// what it is, so browsers leave it alone and the zh-CN completeness scan skips exactly these spans.
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n';

export type UntranslatedKind = 'merchant' | 'technical' | 'buyer';

export function Untranslated({ kind = 'merchant', children }: { kind?: UntranslatedKind; children: ReactNode }) {
  return (
    <span translate="no" data-untranslated={kind}>
      {children}
    </span>
  );
}

/** The merchant's own words, never trusted for meaning: labelled as theirs ("商户原文：…"). */
export function MerchantSaid({ text }: { text: string }) {
  const { t } = useI18n();
  const [before = '', after = ''] = t('merchant.said', { text: '\u0000' }).split('\u0000');
  return (
    <span data-testid="merchant-said">
      {before}
      <Untranslated>{text}</Untranslated>
      {after}
    </span>
  );
}
