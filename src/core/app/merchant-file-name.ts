// Export file names name the merchant once the buyer has more than one (contract §15.2): a file of
// cards or of the books on the desktop must say whose it is. File names stay ASCII (export-file-name.ts:
// every archiver and mail client keeps them), so the profile's name is used when it is ASCII and the
// merchant's host otherwise (a name like 视频会员 would be dropped by some archivers).

const MAX_SLUG = 40;

/** The name made safe for a file name: ASCII letters, digits, dots and dashes; '' when nothing is left. */
export function fileNameSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/[-.]+$/g, '')
    .toLowerCase();
}

/** `procure-desk-cards-…` becomes `procure-desk-<merchant>-cards-…`; unchanged without a merchant. */
export function withMerchantInFileName(suggested: string, merchant: { readonly name: string; readonly host: string | null } | null): string {
  if (merchant === null) return suggested;
  const slug = fileNameSlug(merchant.name) || fileNameSlug(merchant.host ?? '');
  if (slug === '') return suggested;
  const prefix = 'procure-desk-';
  return suggested.startsWith(prefix) ? `${prefix}${slug}-${suggested.slice(prefix.length)}` : `${slug}-${suggested}`;
}
