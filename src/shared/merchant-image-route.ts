// Where the page asks its host for a merchant image (product, brand and after-sales images): the
// host's own origin (app:// in Electron, the web host's authenticated route), never the merchant's,
// so the page's img-src stays 'self'. Core fetches the image within its limits and the host serves it.
export const MERCHANT_IMAGE_PATH = '/merchant-image';
export const MERCHANT_IMAGE_URL_PARAM = 'url';

/** The same-origin address at which the page shows the merchant image at `url`. */
export function merchantImageSrc(url: string): string {
  return `${MERCHANT_IMAGE_PATH}?${MERCHANT_IMAGE_URL_PARAM}=${encodeURIComponent(url)}`;
}
