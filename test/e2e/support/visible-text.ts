// What the buyer can read on the page right now: visible text nodes and the placeholder, title and
// alt texts of visible elements, except inside `translate="no"` (the merchant's data, the buyer's own
// input, core's technical lines — marked so by the screens, see MerchantText.tsx).
import type { Page } from '@playwright/test';
import { englishWords, shownMessageKeys } from '../../../src/renderer/src/i18n/english-words';
import { en } from '../../../src/renderer/src/i18n/messages-en';

// Runs in the page (a source string: the test build has no DOM types).
const READ_VISIBLE_TEXTS = `(() => {
  const texts = [];
  const readable = (element) =>
    element.closest('[translate="no"], script, style, noscript') === null && element.checkVisibility({ visibilityProperty: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = (node.textContent ?? '').trim();
    const parent = node.parentElement;
    if (text !== '' && parent !== null && readable(parent)) texts.push(text);
  }
  for (const element of document.querySelectorAll('[placeholder], [title], img[alt]')) {
    if (!readable(element)) continue;
    for (const name of ['placeholder', 'title', 'alt']) {
      const value = element.getAttribute(name)?.trim() ?? '';
      if (value !== '') texts.push(value);
    }
  }
  return texts;
})()`;

export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(READ_VISIBLE_TEXTS);
}

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
  return found;
}
