// Text that is not ours to translate: the merchant's data (product, brand and category names, order
// numbers, request IDs, its own messages) and core's technical lines. Marked `translate="no"` with
// what it is, so browsers leave it alone and the zh-CN completeness scan skips exactly these spans.
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n';

/** merchant: its data; reference: our own identifiers; buyer: what the buyer wrote; technical: core's English. */
export type UntranslatedKind = 'merchant' | 'reference' | 'buyer' | 'technical';

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

/**
 * A sentence worded by us around the merchant's data (a notification naming a product and an order
 * number): each occurrence of the data is marked, the words around it are not.
 */
export function WithMerchantData({ text, data }: { text: string; data: readonly (string | null | undefined)[] }) {
  const pieces = data.filter((piece): piece is string => typeof piece === 'string' && piece.trim() !== '');
  if (pieces.length === 0) return <>{text}</>;
  const escaped = pieces.sort((a, b) => b.length - a.length).map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = text.split(new RegExp(`(${escaped.join('|')})`));
  return <>{parts.map((part, index) => (index % 2 === 1 ? <Untranslated key={index}>{part}</Untranslated> : part))}</>;
}
