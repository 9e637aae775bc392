// Runs Electronegativity (Doyensec) over the Electron side of the app and reads its CSV. Its exit
// code is 0 whatever it finds, so test/shell/electronegativity.test.ts judges the CSV instead.
//
// Global checks (CSP, navigation limits, permission handler) need to see main, the preload and the
// page together, so the three are copied into one folder and scanned as one app: src/main (core
// included), src/preload and the renderer's index.html. The page's policy is built in one place
// (src/shared/content-security-policy.ts) and sent as a header by the app:// protocol, which a static
// scan cannot follow; the staged index.html therefore carries that very policy text in a meta tag,
// so Electronegativity judges the policy the app sends.
//
//   npm run electronegativity [-- <output.csv>]     default test-results/electronegativity.csv
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { contentSecurityPolicy } from '../src/shared/content-security-policy';

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
  const html = readFileSync(join(root, 'src/renderer/index.html'), 'utf8');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}" />`;
  writeFileSync(join(dir, 'renderer/index.html'), html.replace(/<head>/i, `<head>\n    ${meta}`));
  return dir;
}

// Electronegativity's own CSV writer races: the header and the body are written by two concurrent
// async writeFile calls (one truncating, one appending), so the header can overwrite the first
// finding. Its runner is called here instead and the same CSV is written in one synchronous step.
const require = createRequire(import.meta.url);
const rawIssue = z.object({
  id: z.string(),
  severity: z.object({ name: z.string() }),
  confidence: z.object({ name: z.string() }),
  file: z.string(),
  location: z.object({ line: z.number(), column: z.number() }),
  sample: z.string().nullish(),
  description: z.string(),
});
const runnerResult = z.object({ issues: z.array(rawIssue), errors: z.array(z.object({ file: z.string(), message: z.string(), tolerable: z.boolean() })) });
type Runner = (options: Record<string, unknown>, forCli: boolean) => Promise<unknown>;

const csvField = (value: string | null | undefined): string => (value === null || value === undefined ? 'N/A' : `"${value.replace(/"/g, '""')}"`);

/** Scans and writes the CSV to `outFile`; answers the findings (read back from that CSV). */
export async function runElectronegativity(outFile: string): Promise<Finding[]> {
  const staged = stage();
  try {
    const run = require('@doyensec/electronegativity') as Runner;
    // The Electron in package.json, so no release list is fetched to guess it; paths relative to the stage.
    const result = runnerResult.parse(await run({ input: staged, isRelative: true, isVerbose: false, electronVersionOverride: ELECTRON_VERSION }, false));
    const unparsed = result.errors.filter((e) => !e.tolerable);
    if (unparsed.length > 0) throw new Error(`Electronegativity could not parse: ${unparsed.map((e) => `${e.file}: ${e.message}`).join('; ')}`);
    const lines = result.issues.map((issue) =>
      [issue.id, csvField(issue.severity.name), csvField(issue.confidence.name), csvField(issue.file), csvField(`${issue.location.line}:${issue.location.column}`), csvField(issue.sample), csvField(issue.description), `https://github.com/doyensec/electronegativity/wiki/${issue.id}`].join(','),
    );
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, [CSV_HEADER, ...lines].join('\n') + '\n');
    return parseFindings(readFileSync(outFile, 'utf8'));
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

const CSV_HEADER = 'issue, severity, confidence, filename, location, sample, description, url';

/** Electronegativity's CSV: one finding per line, fields quoted with "" as the escape, or N/A.
 *  A quoted field may hold a line break (a CSP written over several lines), so quotes are tracked
 *  across lines. */
export function parseFindings(csv: string): Finding[] {
  const [header, ...rows] = splitCsv(csv);
  if (header === undefined || header[0] !== 'issue') throw new Error('not an Electronegativity CSV');
  return rows.map((fields) => {
    if (fields.length < 7) throw new Error(`unexpected CSV row: ${fields.join(',')}`);
    const [check = '', severity = '', confidence = '', file = '', location = '', sample = '', description = ''] = fields;
    return { check, severity, confidence, file, location, sample, description };
  });
}

/** RFC 4180 rows: quoted fields may hold commas, "" and line breaks; blank lines are skipped. */
function splitCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endRow = (): void => {
    row.push(field);
    if (row.length > 1 || row[0]?.trim() !== '') rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < csv.length; i++) {
    const char = csv[i];
    if (quoted) {
      if (char === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') endRow();
    else if (char !== '\r') field += char;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** Electronegativity fetches translations and release data for its messages (got, retried); offline
 *  (CI reaches only npm) those requests fail, sometimes late, as an unhandled rejection or a got
 *  RequestError. What it fetches is not what is judged, so those failures alone are let go; the scan
 *  runs in a process of its own so they reach nothing else. */
function isNetworkFetch(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'RequestError' || error.message.includes('The `onCancel` handler was attached after the promise settled');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const event of ['unhandledRejection', 'uncaughtException'] as const) {
    process.on(event, (error: unknown) => {
      if (isNetworkFetch(error)) return;
      console.error(error);
      process.exit(1);
    });
  }
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
