// A self-signed code-signing certificate in a PKCS#12 (.pfx) file, as a release machine would hold one,
// for electron-builder's own reader (windows-app-update.ts). The certificate comes from @peculiar/x509,
// the key is Node's PBES2-encrypted PKCS#8, and the few PKCS#12 wrappers around them (RFC 7292: one
// plain SafeContents with a cert bag and a shrouded key bag, an HMAC-SHA-256 MAC) are written here in DER.
import { createHash, createHmac, KeyObject, randomBytes, webcrypto } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadX509 } from '../../src/sandbox/tls/x509';

function tlv(tag: number, content: Buffer): Buffer {
  const lengthBytes: number[] = [];
  for (let rest = content.length; rest > 0; rest = Math.floor(rest / 256)) lengthBytes.unshift(rest % 256);
  const length = content.length < 0x80 ? [content.length] : [0x80 | lengthBytes.length, ...lengthBytes];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
}
const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const octets = (content: Buffer): Buffer => tlv(0x04, content);
const explicit0 = (content: Buffer): Buffer => tlv(0xa0, content);
/** A positive INTEGER below 2^15 (a version, an iteration count). */
const smallInteger = (value: number): Buffer => tlv(0x02, value < 0x80 ? Buffer.from([value]) : Buffer.from([value >> 8, value & 0xff]));

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  certBag: '1.2.840.113549.1.12.10.1.3',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  sha256: '2.16.840.1.101.3.4.2.1',
};

/** RFC 7292 appendix B.2 with SHA-256 (u = 32, v = 64), id 3: the MAC key from the password. */
function pkcs12MacKey(password: string, salt: Buffer, iterations: number): Buffer {
  const v = 64;
  const fill = (source: Buffer): Buffer => Buffer.from(Array.from({ length: Math.ceil(source.length / v) * v }, (_, i) => source[i % source.length] ?? 0));
  const bmpPassword = Buffer.concat([Buffer.from(password, 'utf16le').swap16(), Buffer.alloc(2)]);
  let a = Buffer.concat([Buffer.alloc(v, 3), fill(salt), fill(bmpPassword)]);
  for (let i = 0; i < iterations; i++) a = createHash('sha256').update(a).digest();
  // 32 bytes of key = one SHA-256 output: no second block, so the I-update step of B.2 is not needed.
  return a;
}

async function codeSigningCertificate(commonName: string): Promise<{ der: Buffer; key: webcrypto.CryptoKey }> {
  const algorithm: webcrypto.RsaHashedKeyGenParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  const x509 = await loadX509();
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '01',
      name: [{ CN: [commonName] }, { O: [commonName] }],
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter: new Date(Date.now() + 365 * 86_400_000),
      keys,
      signingAlgorithm: algorithm,
      extensions: [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.codeSigning])],
    },
    webcrypto,
  );
  return { der: Buffer.from(cert.rawData), key: keys.privateKey };
}

/** Writes `signing.pfx` in `dir`: the certificate and its key, the key and the MAC under `password`. */
export async function writeCodeSigningPfx(dir: string, commonName: string, password: string): Promise<string> {
  const cert = await codeSigningCertificate(commonName);
  const encryptedKey = KeyObject.from(cert.key).export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase: password });
  const certBag = sequence(oid(OID.certBag), explicit0(sequence(oid(OID.x509Certificate), explicit0(octets(cert.der)))));
  const keyBag = sequence(oid(OID.shroudedKeyBag), explicit0(encryptedKey));
  const authenticatedSafe = sequence(sequence(oid(OID.data), explicit0(octets(sequence(certBag, keyBag)))));
  const salt = randomBytes(16);
  const iterations = 2048;
  const mac = createHmac('sha256', pkcs12MacKey(password, salt, iterations)).update(authenticatedSafe).digest();
  const macData = sequence(sequence(sequence(oid(OID.sha256), tlv(0x05, Buffer.alloc(0))), octets(mac)), octets(salt), smallInteger(iterations));
  const pfx = sequence(smallInteger(3), sequence(oid(OID.data), explicit0(octets(authenticatedSafe))), macData);
  const file = join(dir, 'signing.pfx');
  writeFileSync(file, pfx);
  return file;
}
