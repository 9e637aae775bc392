// What the buyer can read on the page right now: visible text nodes and the placeholder, title and
// alt texts of visible elements, except inside `translate="no"` (the merchant's data, the buyer's own
// input, core's technical lines — marked so by the screens, see MerchantText.tsx). What is inside is
// read too, for one check: the app's own English words may not hide there as "data" (issue 26: the
// default merchant name "Merchant 1" shown as if the buyer had typed it).
import type { Page } from '@playwright/test';
import { englishWords, shownMessageKeys } from '../../../src/renderer/src/i18n/english-words';
import { en } from '../../../src/renderer/src/i18n/messages-en';
import { FIRST_MERCHANT_FALLBACK } from '../../../src/shared/merchant-label';

// Runs in the page (a source string: the test build has no DOM types).
const readVisible = (marked: boolean): string => `(() => {
  const texts = [];
  // Inside translate="no": each text with whose words they are (MerchantText.tsx's kinds; '' for nobody's).
  const kindOf = (element) => element.closest('[translate="no"]')?.closest('[data-untranslated]')?.getAttribute('data-untranslated') ?? '';
  const push = (element, text) => texts.push(${String(marked)} ? { text, kind: kindOf(element) } : text);
  const inMarked = (element) => element.closest('[translate="no"]') !== null;
  // antd's hidden option list for screen readers holds the raw value as text; what is read is its aria-label.
  const option = (element) => element.closest('[role="option"][aria-label]');
  const shown = (element) =>
    inMarked(element) === ${String(marked)} && element.closest('script, style, noscript') === null && element.checkVisibility({ visibilityProperty: true });
  const readable = (element) => shown(element) && option(element) === null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = (node.textContent ?? '').trim();
    const parent = node.parentElement;
    if (text !== '' && parent !== null && readable(parent)) push(parent, text);
  }
  for (const element of document.querySelectorAll('[placeholder], [title], img[alt], [role="option"][aria-label]')) {
    const isOption = option(element) === element;
    if (!(isOption ? shown(element) : readable(element))) continue;
    for (const name of isOption ? ['aria-label'] : ['placeholder', 'title', 'alt']) {
      const value = element.getAttribute(name)?.trim() ?? '';
      if (value !== '') push(element, value);
    }
  }
  return texts;
})()`;

export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(readVisible(false));
}

export interface MarkedText {
  readonly text: string;
  /** Whose words (data-untranslated: merchant, reference, buyer, technical); '' when the span says not. */
  readonly kind: string;
}

/** The visible texts inside `translate="no"`: data, skipped by the scan except for the checks below. */
export async function markedTexts(page: Page): Promise<MarkedText[]> {
  return page.evaluate<MarkedText[]>(readVisible(true));
}

/**
 * The app's own English texts, whole: an English message without placeholders and the English names
 * the app gives (shared/merchant-label.ts). Shown inside `translate="no"` in a Chinese UI, they are
 * ours left untranslated, not the merchant's or the buyer's data.
 */
const APP_ENGLISH: ReadonlySet<string> = new Set(
  [...Object.values(en), FIRST_MERCHANT_FALLBACK.en].filter((text) => !text.includes('{') && englishWords(text).length > 0).map((text) => text.trim().toLowerCase()),
);

export interface Untranslated {
  readonly text: string;
  /** The English words, or the message keys, found in it. */
  readonly found: readonly string[];
}

const KEY_HEADS: ReadonlySet<string> = new Set(Object.keys(en).map((key) => key.split('.')[0] ?? ''));

/** Texts on the page with an English word (outside the allow-list) or a message key shown as text. */
export async function untranslatedOn(page: Page): Promise<Untranslated[]> {
  const found: Untranslated[] = [];
  for (const text of new Set(await visibleTexts(page))) {
    const words = [...shownMessageKeys(text, KEY_HEADS), ...englishWords(text)];
    if (words.length > 0) found.push({ text, found: words });
  }
  const marked = await markedTexts(page);
  for (const text of new Set(marked.map((entry) => entry.text))) {
    if (APP_ENGLISH.has(text.toLowerCase())) found.push({ text, found: ['app English marked as data'] });
  }
  // English left untranslated must say whose words it is (the merchant's, the buyer's, a reference, technical).
  for (const text of new Set(marked.filter((entry) => entry.kind === '').map((entry) => entry.text))) {
    if (englishWords(text).length > 0) found.push({ text, found: ['English marked as nobody’s words'] });
  }
  return found;
}
