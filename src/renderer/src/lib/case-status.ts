// How a case, its category, a sender and a message's delivery read on screen. Known values get their
// label; an unknown case state or category is shown raw as unknown, never as resolved (a new state is
// not a finished case), and an unknown sender is never taken for the buyer.
import { classifyAftersaleCategory, classifyCaseState, classifyMessageSender } from '../../../shared/merchant/known-values';
import type { MessageKey } from '../i18n/messages-en';
import { isMessageKey, type Params } from '../i18n/translate';
import type { CaseMessageView } from '../../../shared/ipc/views/aftersales';

/** The translate functions of useI18n (kept apart from the hook, so this stays pure). */
export interface Words {
  readonly t: (key: MessageKey, params?: Params) => string;
  readonly td: (key: string, fallback: MessageKey, params?: Params) => string;
}

export type CaseTone = 'processing' | 'warning' | 'success' | 'default';

const TONES = { open: 'processing', replied: 'warning', resolved: 'success', closed: 'default' } as const satisfies Record<string, CaseTone>;

export function caseStateView(state: string, { t, td }: Words): { label: string; tone: CaseTone; known: boolean } {
  const c = classifyCaseState(state);
  if (c.kind === 'unknown') return { label: t('common.unknownValue', { raw: c.raw }), tone: 'warning', known: false };
  return { label: td(`aftersale.state.${c.value}`, 'status.unknownValue'), tone: TONES[c.value], known: true };
}

export function categoryLabel(category: string, { t, td }: Words): string {
  const c = classifyAftersaleCategory(category);
  return c.kind === 'known' ? td(`aftersale.category.${c.value}`, 'aftersale.category.other') : t('aftersale.category.unknown', { raw: c.raw });
}

/** 'buyer', 'merchant', or the raw value of someone else (shown on the merchant's side). */
export function senderSide(sender: string): 'buyer' | 'merchant' | 'other' {
  const c = classifyMessageSender(sender);
  return c.kind === 'known' ? c.value : 'other';
}

/** Why a buyer message is not delivered yet, in the buyer's language (the merchant's code or ours). */
export function deliveryReason(message: Pick<CaseMessageView, 'lastErrorCode' | 'lastError'>, { td }: Pick<Words, 'td'>): string {
  const code = message.lastErrorCode;
  // Core's text is English and for logs: without a code the buyer reads "the app could not send".
  if (code === null) return message.lastError === null ? '' : td('aftersale.reason.LOCAL', 'aftersale.reason.LOCAL');
  if (!isMessageKey(`aftersale.reason.${code}`) && /^\d{6}$/.test(code)) return td(`merchantError.${code}`, 'aftersale.reason.unknown', { code });
  return td(`aftersale.reason.${code}`, 'aftersale.reason.unknown', { code });
}

/** Only https images are shown (core's image fetcher takes https addresses only). */
export function isShowableImage(url: string): boolean {
  return /^https:\/\//i.test(url);
}
