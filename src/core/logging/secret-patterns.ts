// What counts as secret in a log line: key names whose values are always hidden, the API key's
// shape, and credential-looking `name=value` / `"name":"value"` pairs inside free text (URLs,
// request bodies logged as strings, header dumps).

export const REDACTED = '***';

/** Key names compared after lower-casing and removing `-`, `_` and spaces. */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'apikey',
  'key',
  'servicekey',
  'xservicekey',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'password',
  'passphrase',
  'secret',
  'token',
  'accesstoken',
  'datakey',
  'privatekey',
  'cardno',
  'cardpassword',
  'cardsecret',
  'verificationcode',
  'otp',
  'smscode',
]);

/** Keys whose whole subtree is entry data: field names stay visible, every value is hidden (interface v1 §5). */
const ENTRY_KEYS: ReadonlySet<string> = new Set(['purchaseentries', 'entries']);

/** Ancestors in which a string `code` is a verification code, not the business error code. */
const VERIFICATION_CONTEXT = /verif|otp|sms/;

export function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normalizeKey(key));
}

export function isEntryKey(key: string): boolean {
  return ENTRY_KEYS.has(normalizeKey(key));
}

export function isVerificationContext(key: string): boolean {
  return VERIFICATION_CONTEXT.test(normalizeKey(key));
}

// The API key's format (interface v1 §5) and anything that looks like a truncated or upper-cased one.
const API_KEY_PATTERN = /AK_[0-9A-Fa-f]{8,}/g;

// `name=value`, `name: value`, `"name":"value"` for the secret key names above, in any text.
// The value ends at a quote, `&`, whitespace or a JSON delimiter; an auth scheme word is kept out.
const PAIR_NAMES = [
  'api[-_]?key',
  'x[-_]service[-_]key',
  'service[-_]?key',
  'key',
  'authorization',
  'password',
  'passphrase',
  'secret',
  'token',
  'access[-_]?token',
  'card[-_]?no',
  'card[-_]?password',
  'verification[-_]?code',
  'otp',
].join('|');
const PAIR_PATTERN = new RegExp(`(?<![A-Za-z0-9])((?:${PAIR_NAMES})["']?\\s*[:=]\\s*["']?(?:(?:Bearer|Basic)\\s+)?)([^"'&\\s,;}\\]]+)`, 'gi');

/** Removes the API-key shape and credential pairs; registered secrets are handled by the logger. */
export function redactPatterns(text: string): string {
  return text.replace(API_KEY_PATTERN, 'AK_***').replace(PAIR_PATTERN, (_match, prefix: string) => `${prefix}${REDACTED}`);
}
