// The one Content-Security-Policy of the app's page, for every host that serves it: the Electron
// shell (the app:// protocol and, in development, the dev server's responses) and the web host.
// The hosts differ only in where the page may connect. Images come from the page's own origin (the
// built renderer's files and the merchant images core fetched and serves there) or are inline data
// URIs (antd's built-in placeholders): the page never loads anything from a merchant's host.

export interface PolicyOptions {
  /**
   * Where the page may open connections besides its own origin: the web host's WebSocket origin.
   * The Electron window talks to main over IPC and needs none.
   */
  readonly connectSources?: readonly string[];
  /** Only for the dev server, whose React Fast Refresh preamble is an inline script. */
  readonly devScriptNonce?: string | undefined;
}

export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  const nonce = options.devScriptNonce;
  const scriptSources = nonce === undefined ? "'self'" : `'self' 'nonce-${nonce}'`;
  return [
    "default-src 'self'",
    `script-src ${scriptSources}`,
    // antd writes inline <style> elements; scripts stay 'self' only.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ['connect-src', "'self'", ...(options.connectSources ?? [])].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}
