// The sandbox serves HTTPS with a certificate from its own named CA. The CA lives in `dir` and is
// reused across starts, so a user (or a test) trusts ca-cert.pem once; the server certificate is
// issued fresh on every start for exactly the names the sandbox listens on.
import { resolve } from 'node:path';
import { CA_CERT_FILE, loadOrCreateCa } from './ca-store';
import { issueServerCertificate, type CaMaterial } from './certificate-builder';

export interface SandboxTls {
  /** Absolute path of the CA certificate to trust. */
  caCertFile: string;
  caCertPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  /** The CA itself (key included): the control API's TLS faults issue other certificates from it. */
  ca: CaMaterial;
}

export interface SandboxTlsOptions {
  dir: string;
  /** DNS names the server certificate covers. */
  hostnames: string[];
  /** IPv4 and IPv6 addresses the server certificate covers, e.g. 127.0.0.1 and ::1. */
  ipAddresses: string[];
}

export async function prepareSandboxTls(options: SandboxTlsOptions): Promise<SandboxTls> {
  const dir = resolve(options.dir);
  const ca = await loadOrCreateCa(dir);
  const server = await issueServerCertificate(ca, options.hostnames, options.ipAddresses);
  return {
    caCertFile: resolve(dir, CA_CERT_FILE),
    caCertPem: ca.certPem,
    serverCertPem: server.certPem,
    serverKeyPem: server.keyPem,
    ca,
  };
}
