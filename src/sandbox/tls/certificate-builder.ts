// The X.509 parts of the sandbox's TLS: a self-signed CA and server certificates issued by it, built
// by @peculiar/x509 and signed by Node's WebCrypto. New keys are ECDSA P-256 (PKCS#8 PEM); a CA written
// by an older version (RSA 2048, PKCS#1 PEM, made with node-forge) still loads and issues certificates.
import { createPrivateKey, KeyObject, randomBytes, webcrypto, X509Certificate as NodeX509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type * as X509 from '@peculiar/x509';
import { loadX509 } from './x509';

export const CA_COMMON_NAME = 'Procure Desk Sandbox CA';
const ORGANIZATION = 'Procure Desk Sandbox';
const CA_VALIDITY_YEARS = 10;
// Two years stays under the 825-day ceiling that macOS applies to TLS server certificates.
const SERVER_VALIDITY_DAYS = 730;
// Issued certificates start a little in the past so that a client whose clock lags behind still accepts them.
const BACKDATE_MS = 60 * 60 * 1000;

const EC_KEY: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const ECDSA_SHA256: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const RSA_SHA256: webcrypto.RsaHashedImportParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };

export interface CaMaterial {
  certPem: string;
  keyPem: string;
}

export interface ServerCertificate {
  certPem: string;
  keyPem: string;
}

/** A CA's private key as WebCrypto signs with it, and the signature algorithm that goes with it. */
interface Signer {
  key: webcrypto.CryptoKey;
  algorithm: webcrypto.EcdsaParams | webcrypto.RsaHashedImportParams;
}

/** The CA key in either format this code has ever written; anything else is refused. */
function caSigner(keyPem: string): Signer {
  const key = createPrivateKey(keyPem);
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return { key: key.toCryptoKey(EC_KEY, false, ['sign']), algorithm: ECDSA_SHA256 };
  }
  // Sandbox CAs made before ECDSA (node-forge era): RSA 2048, signing with PKCS#1 v1.5 and SHA-256.
  if (key.asymmetricKeyType === 'rsa') return { key: key.toCryptoKey(RSA_SHA256, false, ['sign']), algorithm: RSA_SHA256 };
  throw new Error(`the CA key is ${key.asymmetricKeyType ?? 'of an unknown type'}, not ECDSA P-256 or RSA`);
}

function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
}

function privateKeyPem(key: webcrypto.CryptoKey): string {
  return KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** A random positive serial: 16 random bytes with the sign bit cleared and never all zero. */
function randomSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return bytes.toString('hex');
}

/** PEM with a final line break, as OpenSSL writes it, so that files and bundles of several read back. */
function certificatePem(cert: X509.X509Certificate): string {
  return `${cert.toString('pem')}\n`;
}

const backdated = (): Date => new Date(Date.now() - BACKDATE_MS);

export async function createCertificateAuthority(): Promise<CaMaterial> {
  const x509 = await loadX509();
  const keys = await generateKeyPair();
  const notAfter = new Date();
  notAfter.setFullYear(notAfter.getFullYear() + CA_VALIDITY_YEARS);
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomSerialHex(),
      name: [{ CN: [CA_COMMON_NAME] }, { O: [ORGANIZATION] }],
      notBefore: backdated(),
      notAfter,
      keys,
      signingAlgorithm: ECDSA_SHA256,
      extensions: [
        // Path length 0: this CA signs server certificates only, never another CA.
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
  return { certPem: certificatePem(cert), keyPem: privateKeyPem(keys.privateKey) };
}

/** Throws if the PEMs do not parse, the certificate is no CA, or the key does not belong to it or cannot sign. */
export function checkCaMaterial(ca: CaMaterial): void {
  const cert = new NodeX509Certificate(ca.certPem);
  const key = createPrivateKey(ca.keyPem);
  if (!cert.checkPrivateKey(key)) throw new Error('the CA key does not belong to the CA certificate');
  if (!cert.ca) throw new Error('the CA certificate is not a CA (basicConstraints)');
  caSigner(ca.keyPem);
}

function altNames(hostnames: string[], ipAddresses: string[]): X509.JsonGeneralName[] {
  const dns = new Set<string>();
  const ips = new Set<string>();
  // A caller may list an address among the hostnames; it only matches as an IP entry.
  for (const host of hostnames) (isIP(host) ? ips : dns).add(host.toLowerCase());
  for (const ip of ipAddresses) {
    if (!isIP(ip)) throw new Error(`not an IP address: ${ip}`);
    ips.add(ip);
  }
  return [...[...dns].map((value) => ({ type: 'dns' as const, value })), ...[...ips].map((value) => ({ type: 'ip' as const, value }))];
}

/** The issuer's own key identifier when it has one (RFC 5280 4.2.1.1), else one computed from its key. */
async function authorityKeyIdentifier(caCert: X509.X509Certificate): Promise<X509.AuthorityKeyIdentifierExtension> {
  const x509 = await loadX509();
  const own = caCert.getExtension(x509.SubjectKeyIdentifierExtension);
  if (own !== null) return new x509.AuthorityKeyIdentifierExtension(own.keyId);
  return x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey, false, webcrypto);
}

/**
 * A server certificate for these names signed by `ca`. `window` overrides its validity (the control
 * API's expired-certificate fault, sandbox/tls/tls-faults.ts); by default it is valid for two years.
 */
export async function issueServerCertificate(ca: CaMaterial, hostnames: string[], ipAddresses: string[], window?: { notBefore: Date; notAfter: Date }): Promise<ServerCertificate> {
  const names = altNames(hostnames, ipAddresses);
  const first = names[0];
  if (first === undefined) throw new Error('a server certificate needs at least one hostname or IP address');
  const x509 = await loadX509();
  const caCert = new x509.X509Certificate(ca.certPem);
  const signer = caSigner(ca.keyPem);
  const keys = await generateKeyPair();
  const notAfter = new Date(Date.now() + SERVER_VALIDITY_DAYS * 24 * 60 * 60 * 1000);
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerialHex(),
      subject: [{ CN: [first.value] }, { O: [ORGANIZATION] }],
      // The CA's subject as it is encoded in its certificate, so that the names match byte for byte.
      issuer: caCert.subjectName,
      notBefore: window?.notBefore ?? backdated(),
      // A certificate outliving its issuer would fail validation in its last stretch anyway.
      notAfter: window?.notAfter ?? (notAfter < caCert.notAfter ? notAfter : caCert.notAfter),
      publicKey: keys.publicKey,
      signingKey: signer.key,
      signingAlgorithm: signer.algorithm,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        // An ECDSA key signs the handshake; keyEncipherment is for RSA key transport only.
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(names),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
        await authorityKeyIdentifier(caCert),
      ],
    },
    webcrypto,
  );
  return { certPem: certificatePem(cert), keyPem: privateKeyPem(keys.privateKey) };
}
