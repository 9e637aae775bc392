export type Locale = 'zh-CN' | 'en';

/** Chinese for any zh-* browser language, English otherwise. */
export function pickLocale(language: string): Locale {
  return language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

export interface WelcomeText {
  title: string;
  subtitle: string;
  summary: string;
}

export const welcomeText: Record<Locale, WelcomeText> = {
  'zh-CN': {
    title: '采购台',
    subtitle: 'Procure Desk',
    summary: '面向小型采购方的桌面应用：通过商户采购开放接口 v1 向商户采购卡密与充值。',
  },
  en: {
    title: 'Procure Desk',
    subtitle: '采购台',
    summary:
      'A desktop app for small procurement buyers to buy card codes and top-ups from a merchant through the Merchant Procurement Open Interface v1.',
  },
};
