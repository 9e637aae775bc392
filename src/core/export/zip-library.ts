// The one ZIP library of the export (@zip.js/zip.js), configured once for every writer: core has no
// web workers to lend, so compression runs in the calling thread (a few hundred ms for 10,000 cards).
import { configure } from '@zip.js/zip.js';

configure({ useWebWorkers: false });

export { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
