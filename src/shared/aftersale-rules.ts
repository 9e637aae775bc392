// The rules of contract §9.1, 9.2 and 7 ("a public image URL") for after-sales input, in one
// place that core (which refuses before anything is written or sent) and the renderer's forms (which
// explain each problem as it is typed) both use, so the two can never disagree. Pure: no Node, no DOM.
import { AFTERSALE_CATEGORIES, AFTERSALE_LIMITS } from './ipc/views/aftersales';

export type CaseRuleCode =
  | 'CATEGORY_UNKNOWN'
  | 'REQUIRED'
  | 'TOO_LONG'
  | 'EMPTY_MESSAGE'
  | 'TOO_MANY_IMAGES'
  | 'URL_TOO_LONG'
  | 'URL_INVALID'
  | 'NOT_HTTPS'
  | 'CREDENTIALS_IN_URL'
  | 'HOST_NOT_PUBLIC'
  | 'NOT_AN_IMAGE';

/** One problem, tied to the field the buyer must correct (`category`, `description`, `text`, `images`, `images.2`). */
export interface CaseFieldProblem {
  readonly path: string;
  readonly rule: CaseRuleCode;
  /** English words for logs and for callers without a translation table; never echoes the value. */
  readonly message: string;
}

export interface CaseDraft {
  readonly category: string;
  readonly description: string;
  readonly images: readonly string[];
}

export interface MessageDraft {
  readonly text: string;
  readonly images: readonly string[];
}

/** What is sent: trimmed text (the merchant compares the trimmed description on a repeated create). */
export interface NormalisedCase {
  readonly category: (typeof AFTERSALE_CATEGORIES)[number];
  readonly description: string;
  readonly images: string[];
}

export interface NormalisedMessage {
  readonly text: string;
  readonly images: string[];
}

const IMAGE_PATH = /\.(jpe?g|png|gif|webp|bmp)$/i;
const HOST_NAME = /^([a-z0-9-]+\.)+[a-z]{2,}$/i;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const NON_PUBLIC_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa', '.lan'];

/** Characters as the merchant counts them (code points), so an emoji is one, not two. */
export function characterCount(text: string): number {
  return [...text].length;
}

/**
 * Why `url` is not a public HTTPS image URL (contract §7, after 7.1), or null when it is one. The
 * host is judged as written, never resolved: an IP literal of any range is refused (a merchant's
 * public image lives under a name), as are localhost, single labels and private-use suffixes.
 */
export function imageUrlProblem(url: string): Exclude<CaseRuleCode, 'CATEGORY_UNKNOWN' | 'REQUIRED' | 'TOO_LONG' | 'EMPTY_MESSAGE' | 'TOO_MANY_IMAGES'> | null {
  if (url.length > AFTERSALE_LIMITS.imageUrlMax) return 'URL_TOO_LONG';
  // The parser would quietly drop surrounding or inner whitespace; the merchant sees the raw text.
  if (url === '' || /\s/.test(url)) return 'URL_INVALID';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'URL_INVALID';
  }
  if (parsed.protocol !== 'https:') return 'NOT_HTTPS';
  if (parsed.username !== '' || parsed.password !== '') return 'CREDENTIALS_IN_URL';
  // WHATWG URL turns 2130706433 or 0x7f.1 into 127.0.0.1 and keeps IPv6 in brackets: both are literals.
  const host = parsed.hostname.toLowerCase();
  if (host.startsWith('[') || IPV4.test(host)) return 'HOST_NOT_PUBLIC';
  if (host === 'localhost' || NON_PUBLIC_SUFFIXES.some((suffix) => host.endsWith(suffix)) || !HOST_NAME.test(host)) return 'HOST_NOT_PUBLIC';
  if (!IMAGE_PATH.test(parsed.pathname)) return 'NOT_AN_IMAGE';
  return null;
}

const URL_WORDS: Record<NonNullable<ReturnType<typeof imageUrlProblem>>, string> = {
  URL_TOO_LONG: `an image address may have at most ${AFTERSALE_LIMITS.imageUrlMax} characters`,
  URL_INVALID: 'not a web address',
  NOT_HTTPS: 'an image address must start with https://',
  CREDENTIALS_IN_URL: 'an image address must not carry a user name or password',
  HOST_NOT_PUBLIC: 'an image address must name a public host (no IP address, localhost or private network name)',
  NOT_AN_IMAGE: 'an image address must end in .jpg, .jpeg, .png, .gif, .webp or .bmp',
};

/** Image addresses as sent: trimmed, empty lines dropped (a form's blank row is not an image). */
export function normaliseImages(images: readonly string[]): string[] {
  return images.map((url) => url.trim()).filter((url) => url !== '');
}

function imageProblems(images: readonly string[]): CaseFieldProblem[] {
  const problems: CaseFieldProblem[] = [];
  if (images.length > AFTERSALE_LIMITS.imagesMax) {
    problems.push({ path: 'images', rule: 'TOO_MANY_IMAGES', message: `at most ${AFTERSALE_LIMITS.imagesMax} images` });
  }
  images.forEach((url, index) => {
    const rule = imageUrlProblem(url);
    if (rule !== null) problems.push({ path: `images.${index}`, rule, message: URL_WORDS[rule] });
  });
  return problems;
}

function isCategory(value: string): value is NormalisedCase['category'] {
  return (AFTERSALE_CATEGORIES as readonly string[]).includes(value);
}

/** Contract §9.1: a known category, a description of 1 to 500 characters after trimming, at most 5 public image URLs. */
export function checkCaseDraft(draft: CaseDraft): { ok: true; value: NormalisedCase } | { ok: false; problems: CaseFieldProblem[] } {
  const problems: CaseFieldProblem[] = [];
  const description = draft.description.trim();
  const images = normaliseImages(draft.images);
  if (!isCategory(draft.category)) problems.push({ path: 'category', rule: 'CATEGORY_UNKNOWN', message: `choose one of ${AFTERSALE_CATEGORIES.join(', ')}` });
  if (description === '') problems.push({ path: 'description', rule: 'REQUIRED', message: 'describe the problem' });
  else if (characterCount(description) > AFTERSALE_LIMITS.descriptionMax) {
    problems.push({ path: 'description', rule: 'TOO_LONG', message: `at most ${AFTERSALE_LIMITS.descriptionMax} characters` });
  }
  problems.push(...imageProblems(images));
  if (problems.length > 0 || !isCategory(draft.category)) return { ok: false, problems };
  return { ok: true, value: { category: draft.category, description, images } };
}

/** Contract §9.2: text of at most 1000 characters, and text or at least one image. */
export function checkMessageDraft(draft: MessageDraft): { ok: true; value: NormalisedMessage } | { ok: false; problems: CaseFieldProblem[] } {
  const problems: CaseFieldProblem[] = [];
  const text = draft.text.trim();
  const images = normaliseImages(draft.images);
  if (characterCount(text) > AFTERSALE_LIMITS.messageTextMax) {
    problems.push({ path: 'text', rule: 'TOO_LONG', message: `at most ${AFTERSALE_LIMITS.messageTextMax} characters` });
  }
  if (text === '' && images.length === 0) problems.push({ path: 'text', rule: 'EMPTY_MESSAGE', message: 'write something or add an image' });
  problems.push(...imageProblems(images));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { text, images } };
}
