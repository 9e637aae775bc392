// A ZIP reader for assertions, independent of the library that wrote the file: the end of central
// directory record, then each central directory entry (APPNOTE 4.3.12, 4.3.16), each local header
// (4.3.7) and the data stored (0) or deflated (8), inflated by node:zlib. No Zip64, no encryption:
// an .xlsx package needs neither. Each entry's CRC-32 is checked against its content.
import { crc32, inflateRawSync } from 'node:zlib';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function zipEntries(bytes: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== EOCD) end--;
  if (end < 0) throw new Error('not a ZIP: no end of central directory record');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== CENTRAL) throw new Error(`central directory entry ${i} has a wrong signature`);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localAt = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (view.getUint32(localAt, true) !== LOCAL) throw new Error(`${name}: the local header has a wrong signature`);
    const dataAt = localAt + 30 + view.getUint16(localAt + 26, true) + view.getUint16(localAt + 28, true);
    const stored = bytes.subarray(dataAt, dataAt + compressedSize);
    const content = method === 0 ? stored : method === 8 ? new Uint8Array(inflateRawSync(stored)) : null;
    if (content === null) throw new Error(`${name}: compression method ${method} is not one an .xlsx uses`);
    if (crc32(content) !== crc) throw new Error(`${name}: CRC-32 does not match its content`);
    entries.set(name, content);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
