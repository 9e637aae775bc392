// Batch orders from a file (issue 16, contract §13): the bounds every side checks, in one home. The
// renderer refuses a file over the size bound before reading it, the contract refuses one over it
// unread (its base64 text), and core refuses one over the row bound with a clear error.

/** The largest file accepted (bytes): far above 1,000 rows of accounts, under the web socket's 4 MiB frame in base64. */
export const MAX_BATCH_FILE_BYTES = 2 * 1024 * 1024;

/** The most data rows (below the header) one batch may hold. */
export const MAX_BATCH_ROWS = 5000;

/** The most columns a file may have. */
export const MAX_BATCH_COLUMNS = 100;

/** The most text the order form's paste box sends to be split (characters). */
export const MAX_PASTE_CHARS = 1_000_000;

/** base64 text of MAX_BATCH_FILE_BYTES bytes. */
export const MAX_BATCH_FILE_BASE64_CHARS = Math.ceil(MAX_BATCH_FILE_BYTES / 3) * 4;

/** The mapping's target for the units column (not a fieldRef: fieldRefs are the template's). */
export const UNITS_TARGET = '@units';

/** Why reading stopped at a bound of time or memory (batch-file-bounds.ts): what a zip bomb or an XML entity trick meets. */
const BATCH_FILE_BOUND_PROBLEMS = ['unzippedTooLarge', 'compressionRatio', 'xmlEntity', 'tooMuchText', 'readTimeout', 'readOutOfMemory'] as const;

/** Why a file cannot be read as a table; each side words it. */
export const BATCH_FILE_PROBLEMS = ['empty', 'headerOnly', 'tooLarge', 'tooManyRows', 'tooManyColumns', 'notATable', 'unreadableSpreadsheet', 'badCsv', 'invalidBytes', ...BATCH_FILE_BOUND_PROBLEMS] as const;
export type BatchFileProblem = (typeof BATCH_FILE_PROBLEMS)[number];

/**
 * A CSV holding bytes invalid in its encoding (contract §13.1): `refuse` the file (the default), or
 * `markRows`: read it, the rows holding them marked as errors and never ordered (the header cannot be).
 */
export const INVALID_BYTES_CHOICES = ['refuse', 'markRows'] as const;
export type InvalidBytesChoice = (typeof INVALID_BYTES_CHOICES)[number];

/**
 * Which column feeds which target: target (a template fieldRef, or UNITS_TARGET) → the column's header
 * text as the file names it. By name, not position, so a mapping remembered for a product fits the
 * next file with the same headers in another order.
 */
export type BatchColumnMap = Readonly<Record<string, string>>;
