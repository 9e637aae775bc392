// What the web host tells the browser about its pages. The policy is the app's one policy
// (src/shared/content-security-policy.ts) with the host's own origin and WebSocket as the only
// places the page may connect to (its session door and its bridge).
import { contentSecurityPolicy } from '../shared/content-security-policy';
import { WEB_BRIDGE_META_NAME } from '../shared/ipc/web-socket-protocol';

export function webContentSecurityPolicy(httpOrigin: string): string {
  const wsOrigin = httpOrigin.replace(/^http:/, 'ws:');
  return contentSecurityPolicy({ connectSources: [httpOrigin, wsOrigin] });
}

/** Headers on every answer: no sniffing, no framing, no referrer carrying the page's address. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * index.html with the bridge's WebSocket path in a meta tag (a path only: the socket needs the session
 * cookie). A meta tag rather than an inline script, because the page's policy allows no inline script.
 */
export function injectBridgeMeta(indexHtml: string, socketPath: string): string {
  const tag = `<meta name="${WEB_BRIDGE_META_NAME}" content="${escapeAttribute(socketPath)}" />`;
  const head = /<head[^>]*>/i.exec(indexHtml);
  if (head === null) throw new Error('the built index.html has no <head>');
  const at = head.index + head[0].length;
  return `${indexHtml.slice(0, at)}\n    ${tag}${indexHtml.slice(at)}`;
}
