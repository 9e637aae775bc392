// The text form of a tunnel choice, as given to the CLI's `--tunnel` flag:
// loopback | ngrok | cloudflared | url:https://…
import type { TunnelSpec } from './tunnel';
import { TunnelError } from './tunnel';

export class TunnelSpecError extends TunnelError {}

const USAGE = 'expected loopback, ngrok, cloudflared or url:https://…';

/**
 * The localtunnel choice of earlier builds. Its only client (the `localtunnel` package, last released
 * in 2021) had to be driven through private files and pulled axios 0.21 with published advisories,
 * so it is no longer offered; a stored choice becomes polling with a notice (app-settings.ts).
 */
export const RETIRED_LOCALTUNNEL = 'localtunnel';

export function parseTunnelSpec(text: string): TunnelSpec {
  const value = text.trim();
  switch (value) {
    case 'loopback':
    case 'ngrok':
    case 'cloudflared':
      return { kind: value };
    default:
      break;
  }
  if (value === RETIRED_LOCALTUNNEL) throw new TunnelSpecError(`localtunnel is no longer offered (its client is unmaintained): ${USAGE}`);
  if (value.startsWith('url:')) return { kind: 'url', url: checkPublicBaseUrl(value.slice('url:'.length)) };
  throw new TunnelSpecError(`unknown tunnel "${value}": ${USAGE}`);
}

/**
 * Checks a base URL the user forwards themselves (reverse proxy, frp) and returns it normalized:
 * HTTPS only, because the merchant sends order data to it across the internet; no credentials,
 * query or fragment, which a callback URL built by appending a path could not keep; the path, if
 * any, is kept as a prefix without its trailing slash.
 */
export function checkPublicBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new TunnelSpecError('the public URL is not a URL');
  }
  if (url.protocol !== 'https:') throw new TunnelSpecError('the public URL must use https://');
  if (url.username !== '' || url.password !== '') throw new TunnelSpecError('the public URL must not carry a user name or password');
  if (url.search !== '' || url.hash !== '') throw new TunnelSpecError('the public URL must not have a query or fragment');
  const prefix = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${prefix}`;
}
