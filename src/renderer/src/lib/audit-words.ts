// An audit row's facts (shared/ipc/views/audit.ts) worded in the buyer's language: which cards (named as
// the vault names them: the merchant's order number and #1 for the first card, shared/card-number.ts)
// and what was done. A row written before facts existed has no facts and is shown as its text.
import { cardNumberLabel } from '../../../shared/card-number';
import type { AuditCardName, AuditFacts, AuditOrderName } from '../../../shared/ipc/views/audit';
import type { I18n } from '../i18n/use-i18n';
import { formatShortDate } from './format-time';

type Words = Pick<I18n, 't' | 'locale'>;

export function auditOrderWords({ t }: Words, order: AuditOrderName): string {
  if (order.platformOrderRef !== null && order.platformOrderRef !== '') return order.platformOrderRef;
  const product = order.productName ?? (order.productRef === null ? t('audit.subject.unknownProduct') : `#${order.productRef}`);
  return t('audit.subject.unnumbered', { product });
}

function cardWords(words: Words, card: AuditCardName): string {
  return words.t('audit.subject.card', { order: auditOrderWords(words, card.order), card: cardNumberLabel(card.seq) });
}

/** Which cards the row is about. */
export function auditSubjectWords(words: Words, facts: AuditFacts): string {
  const { t, locale } = words;
  const s = facts.subject;
  switch (s.kind) {
    case 'card':
      return cardWords(words, s.card);
    case 'order':
      return t('audit.subject.order', { order: auditOrderWords(words, s.order) });
    case 'cards': {
      const cards = s.cards.map((c) => cardWords(words, c)).join(locale === 'zh-CN' ? '、' : ', ');
      return s.more > 0 ? t('audit.subject.cardsMore', { cards, more: s.more }) : t('audit.subject.cards', { cards });
    }
    case 'product':
      return t('audit.subject.product', { productRef: s.productRef });
    case 'dateRange':
      // The range's end is exclusive (the next day's start): its last day is the second before.
      return t('audit.subject.dateRange', { from: formatShortDate(s.from, locale), to: formatShortDate(s.to - 1, locale) });
    case 'notExported':
      return t('audit.subject.notExported');
  }
}

/** What was done beyond the action itself: the field copied, the file's protection and place, an acknowledgement. */
export function auditDetailWords({ t, locale }: Words, facts: AuditFacts): string {
  const parts: string[] = [];
  if (facts.copied !== undefined) parts.push(t(`audit.detail.copied.${facts.copied}`));
  if (facts.allCards === true) parts.push(t('audit.detail.allCards'));
  if (facts.exportFormat !== undefined) parts.push(t(facts.exportFormat === 'zip' && facts.txtLines !== undefined ? 'audit.detail.export.zipTxt' : `audit.detail.export.${facts.exportFormat}`));
  if (facts.txtLines !== undefined) parts.push(t(`audit.detail.txtLines.${facts.txtLines}`));
  if (facts.writtenTo !== undefined) parts.push(t('audit.detail.writtenTo', { path: facts.writtenTo }));
  if (facts.downloadedAs !== undefined) parts.push(t('audit.detail.downloaded', { file: facts.downloadedAs }));
  const ack = facts.refundAcknowledged;
  if (ack !== undefined) parts.push('mark' in ack ? t(`audit.detail.ackMark.${ack.mark}`) : t('audit.detail.ackCount', { count: ack.count }));
  return parts.join(locale === 'zh-CN' ? '；' : '; ');
}
