// What the connect form and core both check before anything is sent to a merchant: the address (a URL,
// HTTPS only, the interface's path) and a CA certificate to trust for this merchant only (PEM, bounded).
// One home for both sides: the form names the mistake at once, core refuses the same input from any
// caller (the CLI, a hand-made request). Core parses the certificate itself as well (node:crypto).

/** What is wrong with one field of the connect input; the renderer words each, core's IpcError names it. */
export const CONNECTION_INPUT_PROBLEMS = [
  'addressNotUrl',
  /** http:// (or anything but https://): refused before sending, the key must never travel in clear text. */
  'addressInsecure',
  'addressPath',
  'userIdEmpty',
  'apiKeyFormat',
  'caCertTooLarge',
  /** Not one or more `-----BEGIN CERTIFICATE-----` blocks (a private key, a CSR, a DER file, text). */
  'caCertNotPem',
  /** PEM-shaped but not a certificate that parses (core's check). */
  'caCertUnreadable',
] as const;
export type ConnectionInputProblem = (typeof CONNECTION_INPUT_PROBLEMS)[number];

/** Which input field a problem belongs to (IpcError `fields[].path`). */
export function fieldOfProblem(problem: ConnectionInputProblem): 'baseUrl' | 'userId' | 'apiKey' | 'caCertPem' {
  if (problem.startsWith('address')) return 'baseUrl';
  if (problem === 'userIdEmpty') return 'userId';
  if (problem === 'apiKeyFormat') return 'apiKey';
  return 'caCertPem';
}

export function isConnectionInputProblem(value: string): value is ConnectionInputProblem {
  return (CONNECTION_INPUT_PROBLEMS as readonly string[]).includes(value);
}

export const API_KEY_FORMAT = /^AK_[0-9a-f]{32}$/;

/** The largest CA file accepted: a chain of a few certificates fits many times over (the channel's bound). */
export const MAX_CA_CERT_PEM_CHARS = 65_536;

/** The interface's fixed base path (interface v1 §1: `https://{merchant-domain}/openapi/v1`). */
export const OPENAPI_BASE_PATH = '/openapi/v1';

/**
 * An address typed without a scheme (`api.example-merchant.cn`, `shop.example.cn:8443/openapi/v1`,
 * `127.0.0.1:8443`): a domain name whose last label is letters (or punycode), an IPv4 literal, an IPv6
 * literal in brackets, or localhost; an optional port and path. Anything else (spaces, a user name,
 * a single word) is not taken for an address.
 */
const BARE_ADDRESS =
  /^(?:localhost|(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\/[^\s]*)?$/iu;

/**
 * The address as it is stored and sent: trimmed, `https://` assumed when no scheme was typed (the
 * interface is https only, spec §1; contract "The connect test"), without trailing slashes, and with the interface's base
 * path added when the buyer typed only the merchant's domain (the path is fixed by the spec, so
 * completing it guesses nothing). Anything else is returned as typed, for addressProblem to judge.
 */
export function completeBaseUrl(baseUrl: string): string {
  const typed = BARE_ADDRESS.test(baseUrl.trim()) ? `https://${baseUrl.trim()}` : baseUrl.trim();
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return typed;
  }
  if ((url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '' && /^https?:\/\/[^/]+\/?$/.test(typed)) return `${url.origin}${OPENAPI_BASE_PATH}`;
  return typed.replace(/\/+$/, '');
}

export function addressProblem(baseUrl: string): ConnectionInputProblem | null {
  let url: URL;
  try {
    url = new URL(completeBaseUrl(baseUrl));
  } catch {
    return 'addressNotUrl';
  }
  if (url.protocol !== 'https:') return 'addressInsecure';
  if (!/\/openapi\/v1\/?$/.test(url.pathname)) return 'addressPath';
  return null;
}

// Line ends of any platform (files saved on Windows, forge's CRLF), trailing blanks tolerated.
const PEM_CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[ \t]*\r?\n(?:[A-Za-z0-9+/=]+[ \t]*\r?\n)+-----END CERTIFICATE-----/g;

/** The shape of a PEM certificate file: only CERTIFICATE blocks and white space, at least one, bounded. */
export function caCertProblem(pem: string): ConnectionInputProblem | null {
  if (pem.length > MAX_CA_CERT_PEM_CHARS) return 'caCertTooLarge';
  const text = pem.trim() + '\n';
  const blocks = text.match(PEM_CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) return 'caCertNotPem';
  // Anything besides the certificate blocks (a private key pasted with it, stray text) is refused:
  // a key must not be stored as "the CA", and a half-pasted file must not pass as whole.
  if (text.replace(PEM_CERTIFICATE_BLOCK, '').trim() !== '') return 'caCertNotPem';
  return null;
}
