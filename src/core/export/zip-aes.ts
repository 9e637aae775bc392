// The encrypted ZIP: one CSV entry, deflated, then encrypted with WinZip AES-256 (AE-2) by
// @zip.js/zip.js, which 7-Zip, WinRAR, Bandizip and Windows 11's Explorer open after asking for the
// password. AE-2 stores no CRC of the plain text (it would let a guess be checked without the
// password); the entry's HMAC-SHA1 authenticates it instead. ZipCrypto is never used: it is broken.
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from './zip-library';

export async function aesZipBytes(entryName: string, content: Uint8Array, password: string, modified: Date): Promise<Uint8Array> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), { password, encryptionStrength: 3, zipCrypto: false, level: 6 });
  await writer.add(entryName, new Uint8ArrayReader(content), { lastModDate: modified });
  return writer.close();
}
