// The browser's side of a batch file (contract §13): the file's bytes as base64 for the contract
// (refused here first when over the bound, before reading a byte), results handed back as a download,
// and the ETA in words. Parsing is core's: the page never reads the file's cells itself.
import { MAX_BATCH_FILE_BYTES } from '../../../shared/batch-file';
import { startBrowserDownload } from './browser-download';

export interface PickedFile {
  readonly fileName: string;
  readonly dataBase64: string;
  readonly size: number;
}

export type PickResult = { readonly ok: true; readonly file: PickedFile } | { readonly ok: false; readonly sizeMb: string };

export const MAX_BATCH_FILE_MB = (MAX_BATCH_FILE_BYTES / 1024 / 1024).toFixed(0);

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let at = 0; at < bytes.length; at += chunk) binary += String.fromCharCode(...bytes.subarray(at, at + chunk));
  return btoa(binary);
}

export async function readPickedFile(file: Blob & { readonly name: string }): Promise<PickResult> {
  if (file.size > MAX_BATCH_FILE_BYTES) return { ok: false, sizeMb: (file.size / 1024 / 1024).toFixed(1) };
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { ok: true, file: { fileName: file.name || 'batch.csv', dataBase64: toBase64(bytes), size: bytes.byteLength } };
}

/** Hands core's results file to the browser as a download. */
export function downloadBase64(fileName: string, dataBase64: string, type: string): void {
  const binary = atob(dataBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  startBrowserDownload(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Whole minutes above two minutes, else seconds (rounded up: "about 1 second" rather than 0). */
export function etaParts(ms: number): { unit: 'minutes' | 'seconds'; count: number } {
  if (ms >= 120_000) return { unit: 'minutes', count: Math.ceil(ms / 60_000) };
  return { unit: 'seconds', count: Math.max(1, Math.ceil(ms / 1000)) };
}
