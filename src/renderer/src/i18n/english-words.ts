// What counts as English in a Chinese text: the one home of the rule both the table test and the
// Chromium completeness scan apply, so a word allowed in one is allowed in the other.
//
// A run of two or more Latin letters is English unless it is a name the buyer meets as is in Chinese
// software (brands, formats, protocol and product names), or part of something that is not prose:
// an address (https://…), a file extension (.png), a command-line flag (--data) or environment
// variable (PROCURE_PASSPHRASE), or a `code` span.

/** Names kept as they are in zh-CN, compared case-insensitively. */
export const ALLOWED_LATIN_WORDS: ReadonlySet<string> = new Set(
  [
    // Formats and protocols.
    'API',
    'CSV',
    'XLSX',
    // The plain-text export a shop imports, and its line end (named so in Chinese editors).
    'TXT',
    'LF',
    // Text encodings a batch file may be in (UTF-8, its BOM, GB18030), named so in Chinese software.
    'UTF',
    'BOM',
    'GB',
    'ZIP',
    'HTTPS',
    'HTTP',
    'URL',
    'IP',
    'ID',
    'AES',
    // Certificates and networks, named so in Chinese software: a CA certificate file (PEM), its
    // SHA-256 fingerprint, a VPN.
    'CA',
    'PEM',
    'SHA',
    'VPN',
    // Keys as printed on the keyboard (Ctrl+Alt+1), named so in Chinese software.
    'Ctrl',
    'Alt',
    // Units, and the offset of a time zone (UTC+8), named so on Chinese clocks.
    'UTC',
    'KB',
    'MB',
    // Brands and programs.
    'macOS',
    'Procure',
    'Desk',
    'ngrok',
    'authtoken',
    'Cloudflare',
    'cloudflared',
    'localtunnel',
    'frp',
    'Excel',
    'WPS',
    'WinRAR',
    'Bandizip',
    'npm',
    'localhost',
    // The language switch names the other language in that language.
    'English',
    // Examples of weak passwords, shown as examples.
    'abcdef',
    'qwerty',
  ].map((word) => word.toLowerCase()),
);

/** Not prose: addresses, file extensions, flags, environment variables, code spans, placeholders. */
const NOT_PROSE = [
  // A technical term after its Chinese name, never alone (issue 26): 消息推送（Webhook）.
  /消息推送（Webhook）/g,
  /`[^`]*`/g,
  /https?:\/\/\S*/g,
  // A merchant's domain typed without https:// (api.example-merchant.cn), an address as much (issue 26).
  /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:cn|com|net|org)\b/g,
  // A path (the interface's /openapi/v1).
  /(?<![\w/])\/[a-z][\w-]*(?:\/[\w.-]+)*/g,
  /\.[a-z]{2,5}\b/g,
  /--[a-z][\w-]*/g,
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]*/g,
  // The a–f of a hexadecimal digit range.
  /\b[a-z]\s*[–-]\s*[a-z]\b/g,
];
/**
 * The syntax of placeholders and plural blocks (`{count}`, `{n, plural, one {…} other {# 件}}`):
 * removed, while a branch's own text stays and is read like the rest.
 */
const MESSAGE_SYNTAX = [/\{\w+,\s*plural,/g, /(?:=\d+|zero|one|two|few|many|other)\s*\{/g, /\{\w+\}/g, /[{}]/g];

/** The English words of a text (runs of ≥ 2 Latin letters outside the allow-list), in order. */
export function englishWords(text: string): string[] {
  let prose = text;
  for (const pattern of NOT_PROSE) prose = prose.replace(pattern, ' ');
  for (const pattern of MESSAGE_SYNTAX) prose = prose.replace(pattern, ' ');
  return (prose.match(/[A-Za-z]{2,}/g) ?? []).filter((word) => !ALLOWED_LATIN_WORDS.has(word.toLowerCase()));
}

/**
 * The message keys shown instead of their text (`order.unitRule`): dotted words whose first part is
 * the first part of a key of the tables (`keyHeads`), so an address like api.example.cn is not one.
 */
export function shownMessageKeys(text: string, keyHeads: ReadonlySet<string>): string[] {
  return [...text.matchAll(/\b([a-z][A-Za-z0-9]*)(?:\.[A-Za-z0-9_-]+)+/g)].filter((match) => keyHeads.has(match[1] ?? '')).map((match) => match[0]);
}
