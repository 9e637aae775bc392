// The one interface every way of reaching the local webhook receiver from outside implements. The
// receiver listens on 127.0.0.1 only, and a callback address must be public HTTPS (interface v1 §6.1):
// a tunnel gives the merchant a public base URL that ends up there. Subscriptions and
// `orderCallbackUrl` are built on `start()`'s answer and redone whenever `onChange` reports a new URL
// or the tunnel coming back up.

export type TunnelKind = 'loopback' | 'ngrok' | 'cloudflared' | 'url';

export interface TunnelStatus {
  kind: TunnelKind;
  up: boolean;
  /** The current public base URL, or null while there is none (not started, down, restarting). */
  publicUrl: string | null;
  /** The last failure, already free of secrets, for the health record. */
  lastError: string | null;
  /** How many times the provider was restarted after it had been up (process died, connection lost). */
  restarts: number;
}

export interface Tunnel {
  readonly kind: TunnelKind;
  /**
   * Starts forwarding to http://127.0.0.1:localPort; resolves with the public base URL: an origin
   * without trailing slash (for `url:` the user's own prefix path may follow it, also without one).
   * Rejects when the provider cannot be brought up the first time; nothing is left running then.
   */
  start(localPort: number): Promise<string>;
  /** Stops forwarding and everything it started; safe to call twice or before `start`. */
  stop(): Promise<void>;
  status(): TunnelStatus;
  /** Called when the public URL changes or the tunnel goes down/up, so subscriptions can be redone. */
  onChange(listener: (status: TunnelStatus) => void): () => void;
}

/** What the user chose (`--tunnel`, settings); see parseTunnelSpec for the text form. */
export type TunnelSpec =
  | { readonly kind: 'loopback' }
  | { readonly kind: 'ngrok' }
  | { readonly kind: 'cloudflared'; readonly executablePath?: string }
  | { readonly kind: 'url'; readonly url: string };

export class TunnelError extends Error {
  override readonly name = 'TunnelError';
}
