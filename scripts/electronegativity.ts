// Runs Electronegativity (Doyensec) over the Electron side of the app and reads its CSV. Its exit
// code is 0 whatever it finds, so test/shell/electronegativity.test.ts judges the CSV instead.
//
// Global checks (CSP, navigation limits, permission handler) need to see main, the preload and the
// page together, so the three are copied into one folder and scanned as one app: src/main (core
// included), src/preload and the renderer's index.html (which carries the CSP of a file:// page).
//
//   npm run electronegativity [-- <output.csv>]     default test-results/electronegativity.csv
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ELECTRON_VERSION = (JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;

export interface Finding {
  check: string;
  severity: string;
  confidence: string;
  file: string;
  location: string;
  sample: string;
  description: string;
}

/** Copies the scanned sources into a fresh folder: main/, preload/, renderer/index.html. */
function stage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'procure-electronegativity-'));
  cpSync(join(root, 'src/main'), join(dir, 'main'), { recursive: true });
  cpSync(join(root, 'src/preload'), join(dir, 'preload'), { recursive: true });
  mkdirSync(join(dir, 'renderer'));
  cpSync(join(root, 'src/renderer/index.html'), join(dir, 'renderer/index.html'));
  return dir;
}

/** Scans and writes the CSV to `outFile`; answers the findings. */
export async function runElectronegativity(outFile: string): Promise<Finding[]> {
  const staged = stage();
  try {
    mkdirSync(dirname(outFile), { recursive: true });
    rmSync(outFile, { force: true });
    const bin = join(root, 'node_modules/.bin/electronegativity');
    // -e: the Electron in package.json, so no release list is fetched to guess it.
    await promisify(execFile)(bin, ['-i', staged, '-o', outFile, '-r', '-v', 'false', '-e', ELECTRON_VERSION], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    return parseFindings(readFileSync(outFile, 'utf8'));
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

/** Electronegativity's CSV: one finding per line, fields quoted with "" as the escape, or N/A. */
export function parseFindings(csv: string): Finding[] {
  const lines = csv.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = lines.shift();
  if (header === undefined || !header.startsWith('issue, severity')) throw new Error('not an Electronegativity CSV');
  return lines.map((line) => {
    const fields = splitCsvLine(line);
    if (fields.length < 7) throw new Error(`unexpected CSV line: ${line}`);
    const [check = '', severity = '', confidence = '', file = '', location = '', sample = '', description = ''] = fields;
    return { check, severity, confidence, file, location, sample, description };
  });
}

function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        current += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      fields.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  fields.push(current);
  return fields;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outFile = resolve(process.argv[2] ?? join(root, 'test-results/electronegativity.csv'));
  runElectronegativity(outFile)
    .then((findings) => {
      for (const f of findings) console.log(`${f.severity.padEnd(13)} ${f.check}  ${f.file}:${f.location}  ${f.sample}`);
      console.log(`${findings.length} findings written to ${outFile}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
