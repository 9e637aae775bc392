// The parts of an XLSX package (a ZIP) found through its central directory and inflated as a stream
// (fflate's Inflate fed a few KiB at a time), counting the bytes actually inflated: a part stops at
// MAX_XLSX_PART_BYTES, all parts together at MAX_XLSX_TOTAL_BYTES, and a part inflating more than
// MAX_XLSX_COMPRESSION_RATIO times its compressed bytes is refused as a bomb. The sizes the headers
// declare are never trusted; only where the data starts and how long it is in this file are used.
import { Inflate } from 'fflate';
import { MAX_XLSX_COMPRESSION_RATIO, MAX_XLSX_PART_BYTES, MAX_XLSX_TOTAL_BYTES, XLSX_RATIO_FLOOR_BYTES } from '../../shared/batch-file-bounds';
import { BatchFileError } from './batch-file-error';

interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly dataStart: number;
  readonly compressedSize: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_ENTRIES = 10_000;
/**
 * Compressed bytes fed to the inflater at once: at most ~1032× as many (16.5 MiB) come out of one push
 * before the counts can refuse them; smaller pushes cost fflate far more time (2 KiB: 10×).
 */
const PUSH_BYTES = 16 * 1024;
/** Inflated bytes counted and parsed at a time. */
const SLICE_BYTES = 64 * 1024;
const MIB = 1024 * 1024;

const unreadable = (reason: string): BatchFileError => new BatchFileError('unreadableSpreadsheet', `the XLSX workbook cannot be read: ${reason}`);

function findEndOfDirectory(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 65_535; at -= 1) if (view.getUint32(at, true) === EOCD) return at;
  throw unreadable('no ZIP central directory');
}

/** Part names as OPC compares them: no leading slash, case-insensitive. */
export const partKey = (name: string): string => name.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();

export class XlsxPackage {
  private readonly entries = new Map<string, ZipEntry>();
  private inflatedTotal = 0;

  constructor(private readonly bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 22) throw unreadable('too short for a ZIP');
    const end = findEndOfDirectory(view);
    const count = view.getUint16(end + 10, true);
    const directoryOffset = view.getUint32(end + 16, true);
    if (view.getUint16(end + 4, true) !== 0 || count === 0xffff || directoryOffset === 0xffffffff) throw unreadable('a split or ZIP64 archive');
    if (count > MAX_ENTRIES) throw unreadable(`more than ${MAX_ENTRIES} entries`);
    const names = new TextDecoder('utf-8');
    let at = directoryOffset;
    for (let i = 0; i < count; i += 1) {
      if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== CENTRAL) throw unreadable('a broken central directory');
      const flags = view.getUint16(at + 8, true);
      const method = view.getUint16(at + 10, true);
      const compressedSize = view.getUint32(at + 20, true);
      const nameLength = view.getUint16(at + 28, true);
      const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      const localOffset = view.getUint32(at + 42, true);
      if (at + 46 + nameLength > bytes.byteLength) throw unreadable('a broken central directory');
      const name = partKey(names.decode(bytes.subarray(at + 46, at + 46 + nameLength)));
      at += 46 + skip;
      if ((flags & 1) !== 0) throw unreadable(`${name} is encrypted`);
      if (localOffset + 30 > bytes.byteLength || view.getUint32(localOffset, true) !== LOCAL) throw unreadable(`${name} has no local header`);
      const dataStart = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
      if (dataStart + compressedSize > bytes.byteLength) throw unreadable(`${name} runs past the end of the file`);
      if (this.entries.has(name)) throw unreadable(`${name} is in the archive twice`);
      this.entries.set(name, { name, method, dataStart, compressedSize });
    }
  }

  has(name: string): boolean {
    return this.entries.has(partKey(name));
  }

  /**
   * Inflates a part, handing each piece to `sink` as it comes; throws BatchFileError past a bound. The
   * sink may throw to stop reading (the row limit): nothing more is inflated then.
   */
  inflate(name: string, sink: (piece: Uint8Array) => void): void {
    const entry = this.entries.get(partKey(name));
    if (entry === undefined) throw unreadable(`${name} is missing`);
    const data = this.bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    let inflated = 0;
    let consumed = 0;
    // What the sink threw (a refusal, the row limit, bad XML) passes through as it is.
    const stopped: { thrown: boolean; error: unknown } = { thrown: false, error: undefined };
    // A push's whole output is judged for its ratio before any of it is parsed (so a bomb is named as
    // one), then counted and handed on in slices (so the row limit stops a sheet within that output).
    const take = (piece: Uint8Array): void => {
      const after = inflated + piece.byteLength;
      if (after > XLSX_RATIO_FLOOR_BYTES && after > MAX_XLSX_COMPRESSION_RATIO * Math.max(consumed, 1)) {
        throw new BatchFileError('compressionRatio', `the XLSX part ${entry.name} unpacks to more than ${MAX_XLSX_COMPRESSION_RATIO} times its size: refused as a possible zip bomb`);
      }
      for (let at = 0; at < piece.byteLength; at += SLICE_BYTES) count(piece.subarray(at, at + SLICE_BYTES));
    };
    const count = (piece: Uint8Array): void => {
      inflated += piece.byteLength;
      this.inflatedTotal += piece.byteLength;
      if (inflated > MAX_XLSX_PART_BYTES) throw new BatchFileError('unzippedTooLarge', `the XLSX part ${entry.name} unpacks to more than ${MAX_XLSX_PART_BYTES / MIB} MiB (the most one part may hold): refused as a possible zip bomb`);
      if (this.inflatedTotal > MAX_XLSX_TOTAL_BYTES) throw new BatchFileError('unzippedTooLarge', `the XLSX unpacks to more than ${MAX_XLSX_TOTAL_BYTES / MIB} MiB in all: refused as a possible zip bomb`);
      try {
        sink(piece);
      } catch (error) {
        stopped.thrown = true;
        stopped.error = error;
        throw error;
      }
    };
    if (entry.method === 0) {
      consumed = data.byteLength;
      take(data);
      return;
    }
    if (entry.method !== 8) throw unreadable(`${entry.name} is compressed with method ${entry.method}`);
    const inflater = new Inflate((piece) => take(piece));
    try {
      for (let at = 0; at < data.byteLength || at === 0; at += PUSH_BYTES) {
        consumed = Math.min(data.byteLength, at + PUSH_BYTES);
        inflater.push(data.subarray(at, consumed), consumed === data.byteLength);
      }
    } catch (error) {
      if (error instanceof BatchFileError || (stopped.thrown && stopped.error === error)) throw error;
      throw unreadable(`${entry.name} does not inflate (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}
