// The X.509 parts of the sandbox's TLS: a self-signed CA and server certificates issued by it.
// Keys come from Node's native RSA generator (forge's pure-JS one takes seconds per key) and are
// handed to forge as PEM; forge only builds and signs the certificates.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

export const CA_COMMON_NAME = 'Procure Desk Sandbox CA';
const ORGANIZATION = 'Procure Desk Sandbox';
const CA_VALIDITY_YEARS = 10;
// Two years stays under the 825-day ceiling that macOS applies to TLS server certificates.
const SERVER_VALIDITY_DAYS = 730;
// Issued certificates start a little in the past so that a client whose clock lags behind still accepts them.
const BACKDATE_MS = 60 * 60 * 1000;

export interface KeyPairPem {
  privateKeyPem: string;
  publicKeyPem: string;
}

export interface CaMaterial {
  certPem: string;
  keyPem: string;
}

export function generateRsaKeyPair(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/** A random positive serial: 16 random bytes with the sign bit cleared and never all zero. */
function randomSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return bytes.toString('hex');
}

function validity(cert: forge.pki.Certificate, notAfter: Date): void {
  cert.validity.notBefore = new Date(Date.now() - BACKDATE_MS);
  cert.validity.notAfter = notAfter;
}

export function createCertificateAuthority(): CaMaterial {
  const keys = generateRsaKeyPair();
  const privateKey = forge.pki.privateKeyFromPem(keys.privateKeyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKeyPem);
  cert.serialNumber = randomSerialHex();
  const notAfter = new Date();
  notAfter.setFullYear(notAfter.getFullYear() + CA_VALIDITY_YEARS);
  validity(cert, notAfter);
  const name = [
    { name: 'commonName', value: CA_COMMON_NAME },
    { name: 'organizationName', value: ORGANIZATION },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privateKeyPem };
}

/** Throws if the PEMs do not parse or the key does not belong to the certificate. */
export function checkCaMaterial(ca: CaMaterial): void {
  const cert = forge.pki.certificateFromPem(ca.certPem);
  const key = forge.pki.privateKeyFromPem(ca.keyPem);
  const certKey = cert.publicKey as forge.pki.rsa.PublicKey;
  if (certKey.n.compareTo(key.n) !== 0 || certKey.e.compareTo(key.e) !== 0) {
    throw new Error('the CA key does not belong to the CA certificate');
  }
}

type AltName = { type: 2; value: string } | { type: 7; ip: string };

function altNames(hostnames: string[], ipAddresses: string[]): AltName[] {
  const dns = new Set<string>();
  const ips = new Set<string>();
  // A caller may list an address among the hostnames; it only matches as an IP entry.
  for (const host of hostnames) (isIP(host) ? ips : dns).add(host.toLowerCase());
  for (const ip of ipAddresses) {
    if (!isIP(ip)) throw new Error(`not an IP address: ${ip}`);
    ips.add(ip);
  }
  return [...[...dns].map((value) => ({ type: 2 as const, value })), ...[...ips].map((ip) => ({ type: 7 as const, ip }))];
}

export interface ServerCertificate {
  certPem: string;
  keyPem: string;
}

/**
 * A server certificate for these names signed by `ca`. `window` overrides its validity (the control
 * API's expired-certificate fault, sandbox/tls/tls-faults.ts); by default it is valid for two years.
 */
export function issueServerCertificate(ca: CaMaterial, hostnames: string[], ipAddresses: string[], window?: { notBefore: Date; notAfter: Date }): ServerCertificate {
  const names = altNames(hostnames, ipAddresses);
  if (names.length === 0) throw new Error('a server certificate needs at least one hostname or IP address');
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const keys = generateRsaKeyPair();

  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKeyPem);
  cert.serialNumber = randomSerialHex();
  const notAfter = new Date(Date.now() + SERVER_VALIDITY_DAYS * 24 * 60 * 60 * 1000);
  // A certificate outliving its issuer would fail validation in its last stretch anyway.
  validity(cert, notAfter < caCert.validity.notAfter ? notAfter : caCert.validity.notAfter);
  if (window !== undefined) {
    cert.validity.notBefore = window.notBefore;
    cert.validity.notAfter = window.notAfter;
  }
  const first = names[0];
  const commonName = first === undefined ? 'sandbox' : first.type === 2 ? first.value : first.ip;
  cert.setSubject([
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: ORGANIZATION },
  ]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privateKeyPem };
}
