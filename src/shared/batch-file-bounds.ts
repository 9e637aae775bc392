// The bounds of time and memory a batch file is read within (issue 25, contract §13.1), in one home:
// core enforces them (src/core/batch/xlsx-*.ts), the screens and the CLI name them in a refusal. Sizes
// count bytes actually inflated, never what a ZIP header declares.

const MIB = 1024 * 1024;

/** The most bytes one part of an XLSX (a sheet, the shared strings, the styles…) may inflate to. */
export const MAX_XLSX_PART_BYTES = 32 * MIB;

/** The most bytes all the parts read from one XLSX may inflate to together. */
export const MAX_XLSX_TOTAL_BYTES = 64 * MIB;

/** Inflated : compressed bytes a part may reach once past XLSX_RATIO_FLOOR_BYTES (zip bombs reach ~1000). */
export const MAX_XLSX_COMPRESSION_RATIO = 200;

/** Below this many inflated bytes a part's ratio is not judged (a tiny part compresses very well). */
export const XLSX_RATIO_FLOOR_BYTES = 1 * MIB;

/** The most characters of cell text kept from one file (shared strings the sheet uses, inline strings). */
export const MAX_XLSX_TEXT_CHARS = 16 * MIB;

/** The most characters of one XML token: a text, a tag with its attributes, a comment (Excel: 32,767 per cell). */
export const MAX_XML_TOKEN_CHARS = 1 * MIB;

/** The heap the reader's worker may use (MiB); past it the worker dies and the file is refused. */
export const BATCH_READ_MEMORY_MB = 128;

/** How long reading one file may take. */
export const BATCH_READ_TIME_LIMIT_MS = 30_000;

/** The numbers the refusals name, in the units a buyer reads them in. */
export const BATCH_FILE_BOUND_WORDS = {
  partMb: MAX_XLSX_PART_BYTES / MIB,
  totalMb: MAX_XLSX_TOTAL_BYTES / MIB,
  ratio: MAX_XLSX_COMPRESSION_RATIO,
  textMChars: MAX_XLSX_TEXT_CHARS / MIB,
  cellChars: MAX_XML_TOKEN_CHARS,
  memoryMb: BATCH_READ_MEMORY_MB,
  seconds: BATCH_READ_TIME_LIMIT_MS / 1000,
} as const;
