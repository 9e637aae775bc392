// The file a password-protected .xlsx really is: a Compound File Binary container (MS-CFB) holding
// the EncryptionInfo and EncryptedPackage streams (office-agile-encryption.ts) and the data-space
// storage MS-OFFCRYPTO 2.3.4.1 requires of an encrypted ECMA-376 document:
//   \x06DataSpaces/Version                                    DataSpaceVersionInfo (2.1.5)
//   \x06DataSpaces/DataSpaceMap                               EncryptedPackage → StrongEncryptionDataSpace (2.1.6)
//   \x06DataSpaces/DataSpaceInfo/StrongEncryptionDataSpace    → StrongEncryptionTransform (2.1.7)
//   \x06DataSpaces/TransformInfo/StrongEncryptionTransform/\x06Primary   the encryption transform (2.1.8, 2.1.9)
// Excel and WPS find the encryption through this map; readers that skip it (msoffcrypto-tool) lose nothing.
import CFB from 'cfb';
import { encryptAgile } from './office-agile-encryption';

const ENCRYPTION_TRANSFORM_ID = '{FF9A3F03-56EF-4613-BDD5-5A41C1D07246}';

/** UNICODE-LP-P4 (2.1.2): byte length, UTF-16LE characters, zero padding to a multiple of 4. */
function unicodeLpP4(text: string): Buffer {
  const chars = Buffer.from(text, 'utf16le');
  const padded = Buffer.alloc(4 + Math.ceil(chars.length / 4) * 4);
  padded.writeUInt32LE(chars.length, 0);
  chars.copy(padded, 4);
  return padded;
}

const uint32s = (...values: number[]): Buffer => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32LE(v, i * 4));
  return b;
};

/** Version 1.0 as major, minor (2 bytes each): reader, updater and writer. */
const VERSION_1_0 = uint32s(1, 1, 1);

/** 2.1.5 DataSpaceVersionInfo. */
export function dataSpaceVersionStream(): Buffer {
  return Buffer.concat([unicodeLpP4('Microsoft.Container.DataSpaces'), VERSION_1_0]);
}

/** 2.1.6 DataSpaceMap with one entry: the EncryptedPackage stream belongs to StrongEncryptionDataSpace. */
export function dataSpaceMapStream(): Buffer {
  const entryBody = Buffer.concat([uint32s(1, 0), unicodeLpP4('EncryptedPackage'), unicodeLpP4('StrongEncryptionDataSpace')]);
  // An entry's Length counts its own four bytes too.
  return Buffer.concat([uint32s(8, 1, entryBody.length + 4), entryBody]);
}

/** 2.1.7 DataSpaceDefinition: one transform. */
export function dataSpaceDefinitionStream(): Buffer {
  return Buffer.concat([uint32s(8, 1), unicodeLpP4('StrongEncryptionTransform')]);
}

/** 2.1.8 TransformInfoHeader + 2.1.9 EncryptionTransformInfo (no name, block size and mode 0, reserved 4). */
export function primaryTransformStream(): Buffer {
  const id = unicodeLpP4(ENCRYPTION_TRANSFORM_ID);
  // TransformLength covers itself, TransformType (1: a transform of a data space) and TransformID.
  const head = Buffer.concat([uint32s(4 + 4 + id.length, 1), id]);
  return Buffer.concat([head, unicodeLpP4('Microsoft.Container.EncryptionTransform'), VERSION_1_0, uint32s(0, 0, 0, 4)]);
}

const SEED_STREAM = '\u0001Sh33tJ5';

/** Assembles the compound file around the two encryption streams. */
function encryptedContainer(streams: { encryptionInfo: Buffer; encryptedPackage: Buffer }): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '\u0006DataSpaces/Version', dataSpaceVersionStream());
  CFB.utils.cfb_add(container, '\u0006DataSpaces/DataSpaceMap', dataSpaceMapStream());
  CFB.utils.cfb_add(container, '\u0006DataSpaces/DataSpaceInfo/StrongEncryptionDataSpace', dataSpaceDefinitionStream());
  CFB.utils.cfb_add(container, '\u0006DataSpaces/TransformInfo/StrongEncryptionTransform/\u0006Primary', primaryTransformStream());
  CFB.utils.cfb_add(container, 'EncryptionInfo', streams.encryptionInfo);
  CFB.utils.cfb_add(container, 'EncryptedPackage', streams.encryptedPackage);
  // cfb seeds every new container with a 4-byte placeholder stream and re-seeds it on write unless it
  // finds one; marking it as an unused entry (type 0) keeps it found but out of the written file, so
  // the container holds exactly what MS-OFFCRYPTO describes.
  const seed = CFB.find(container, `/${SEED_STREAM}`);
  if (seed !== null) seed.type = 0;
  const written: unknown = CFB.write(container, { type: 'buffer', fileType: 'cfb' });
  if (!Buffer.isBuffer(written)) throw new Error('the compound file writer did not return bytes');
  return written;
}

/** The bytes of a password-protected .xlsx from the plain package bytes. */
export async function encryptOfficePackage(plainPackage: Uint8Array, password: string): Promise<Buffer> {
  const streams = await encryptAgile(plainPackage, password);
  return encryptedContainer(streams);
}
