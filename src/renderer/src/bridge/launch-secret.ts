// The launch URL's secret as the page reads it: only from the fragment (`#k=…`), which a browser never
// sends to any server. DOM-free, so the host's tests can check it against the URLs the host prints.
import { WEB_LAUNCH_FRAGMENT_KEY } from '../../../shared/ipc/web-socket-protocol';

/** The launch secret in a `#k=…` fragment, or null. */
export function launchSecretOf(hash: string): string | null {
  const secret = new URLSearchParams(hash.replace(/^#/, '')).get(WEB_LAUNCH_FRAGMENT_KEY);
  return secret === null || secret === '' ? null : secret;
}
