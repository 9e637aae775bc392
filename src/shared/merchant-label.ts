// How a merchant profile is named on screen and in notifications (issue 26, contract §15.1). The
// buyer's own name and the account's name (nickname or host) are shown as stored; the first profile's
// fallback, stored as "Merchant 1" before any account answered, is worded in the app's language.
// Here, not in the renderer's tables, because the desktop notification words it too (notification-text.ts).
export type MerchantNameSource = 'buyer' | 'account' | 'fallback';

export const MERCHANT_NAME_SOURCES = ['buyer', 'account', 'fallback'] as const satisfies readonly MerchantNameSource[];

/** The first profile's fallback name in each language; the English one is what the registry stores. */
export const FIRST_MERCHANT_FALLBACK = { 'zh-CN': '商户 1', en: 'Merchant 1' } as const;

export interface NamedMerchant {
  readonly name: string;
  /** Absent: the buyer's (older payloads, tests). */
  readonly nameSource?: MerchantNameSource | undefined;
}

export function merchantLabel(merchant: NamedMerchant, language: 'zh-CN' | 'en'): string {
  return merchant.nameSource === 'fallback' ? FIRST_MERCHANT_FALLBACK[language] : merchant.name;
}

/** Names that mean the fallback in some language (typed to confirm a removal, refused for another profile). */
export const FALLBACK_LABELS: readonly string[] = Object.values(FIRST_MERCHANT_FALLBACK);
