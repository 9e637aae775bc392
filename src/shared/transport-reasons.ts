// Why no answer came from the merchant, finer than "unreachable": the buyer is told which one it was
// and what to do (contract §8.2–8.3). Core's HTTPS port classifies Node's socket and TLS error codes into
// these; the renderer explains each in words.
export const TRANSPORT_REASONS = [
  /** The merchant's host name did not resolve. */
  'dns',
  /** The host answered but nothing listens on that port. */
  'refused',
  /** No route to the host (network down, firewall). */
  'unreachable',
  /** The connection was reset or the answer cut off. */
  'reset',
  /** No complete answer in time. */
  'timeout',
  /** The certificate is not signed by a trusted authority (a private CA not added, a self-signed one). */
  'tlsUntrusted',
  /** The certificate names another host. */
  'tlsHostname',
  /** The certificate has expired or is not valid yet. */
  'tlsExpired',
  /** Another TLS failure (protocol, cipher). */
  'tlsOther',
  /** The address is not https. */
  'insecure',
  /** The answer was larger than any interface answer can be. */
  'tooLarge',
] as const;
export type TransportReason = (typeof TRANSPORT_REASONS)[number];

export function isCertificateReason(reason: TransportReason): boolean {
  return reason === 'tlsUntrusted' || reason === 'tlsHostname' || reason === 'tlsExpired' || reason === 'tlsOther';
}
