// Names of what an export writes: the file the host is asked to place (ASCII, so every archiver and
// mail client keeps it intact), the CSV inside the ZIP, and the extension a save dialog may have left off.
import type { ExportFormat } from '../../shared/ipc/views/vault';
import { fileNameStamp, runtimeTimeZone } from '../../shared/date-time';

/** The buyer's local time (the host's zone is theirs), `YYYYMMDD-HHmmss`. */
const stamp = (seconds: number): string => fileNameStamp(seconds * 1000, runtimeTimeZone());

export function exportBaseName(count: number, nowSeconds: number): string {
  return `procure-desk-cards-${stamp(nowSeconds)}-${count}`;
}

export function suggestedFileName(format: ExportFormat, count: number, nowSeconds: number): string {
  return `${exportBaseName(count, nowSeconds)}.${format}`;
}

/** Adds `.xlsx` / `.zip` / `.csv` when the chosen name lacks it (GTK's save dialog does not add it). */
export function withExtension(path: string, format: ExportFormat): string {
  return path.toLowerCase().endsWith(`.${format}`) ? path : `${path}.${format}`;
}
