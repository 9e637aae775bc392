// The certificates the control API can make the sandbox serve instead of its good one, so that a
// client's handling of each TLS failure can be shown against the real server (docs/sandbox.md):
// expired (signed by the sandbox CA, validity ended yesterday), otherHost (signed by the sandbox CA for
// a name the client did not ask for), untrusted (valid for the right names, signed by a CA nobody trusts).
import { createCertificateAuthority, issueServerCertificate, type CaMaterial, type ServerCertificate } from './certificate-builder';

export const TLS_FAULT_MODES = ['valid', 'expired', 'otherHost', 'untrusted'] as const;
export type TlsFaultMode = (typeof TLS_FAULT_MODES)[number];

export function isTlsFaultMode(value: unknown): value is TlsFaultMode {
  return typeof value === 'string' && (TLS_FAULT_MODES as readonly string[]).includes(value);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The certificate of a fault mode other than `valid` for these names. */
export async function faultCertificate(mode: Exclude<TlsFaultMode, 'valid'>, ca: CaMaterial, hostnames: string[], ipAddresses: string[]): Promise<ServerCertificate> {
  switch (mode) {
    case 'expired':
      return issueServerCertificate(ca, hostnames, ipAddresses, { notBefore: new Date(Date.now() - 30 * DAY_MS), notAfter: new Date(Date.now() - DAY_MS) });
    case 'otherHost':
      return issueServerCertificate(ca, ['other-host.invalid'], []);
    case 'untrusted':
      return issueServerCertificate(await createCertificateAuthority(), hostnames, ipAddresses);
  }
}
