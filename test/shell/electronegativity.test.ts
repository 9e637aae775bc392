// Electronegativity over main, the preload and the page (scripts/electronegativity.ts). Its exit
// code is always 0, so this reads the CSV: any HIGH or MEDIUM finding fails. There is no list of
// accepted findings; code that trips a check is changed instead.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFindings, type Finding } from '../../scripts/electronegativity';

const root = join(import.meta.dirname, '..', '..');
const csvFile = join(root, 'test-results/electronegativity.csv');
const isSevere = (f: Finding): boolean => f.severity === 'HIGH' || f.severity === 'MEDIUM';

let findings: Finding[];

beforeAll(async () => {
  // In a process of its own (as `npm run electronegativity`): its offline translation fetch may fail late.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/electronegativity.ts'), csvFile], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code, stderr).toBe(0);
  findings = parseFindings(readFileSync(csvFile, 'utf8'));
}, 120_000);

describe('Electronegativity', () => {
  it('finds no HIGH or MEDIUM issue', () => {
    const severe = findings.filter(isSevere).map((f) => `${f.severity} ${f.check} ${f.file}:${f.location} ${f.sample}`);
    expect(severe).toEqual([]);
  });

  it('scanned the shell: the checks that read main saw its sandboxed window', () => {
    // A scan of an empty or unparsable folder would also find nothing severe.
    expect(findings.some((f) => f.file.startsWith('main/'))).toBe(true);
  });

  it('saw the app as one: the CSP, navigation limits and permission handler were all found', () => {
    const globalMisses = findings.filter((f) => f.file === 'N/A' && isSevere(f));
    expect(globalMisses).toEqual([]);
    expect(findings.some((f) => f.file === 'renderer/index.html')).toBe(true);
  });

  it('reads its CSV format, quotes and line breaks inside fields included', () => {
    const csv = [
      'issue, severity, confidence, filename, location, sample, description, url',
      'X_CHECK,"HIGH","FIRM","a/b.ts","1:2","say(""hi, there"")\n  more","desc, with comma",https://example.com',
      'Y_CHECK,"LOW","TENTATIVE","N/A","0:0",N/A,"d",https://example.com',
    ].join('\n');
    expect(parseFindings(csv)).toEqual([
      { check: 'X_CHECK', severity: 'HIGH', confidence: 'FIRM', file: 'a/b.ts', location: '1:2', sample: 'say("hi, there")\n  more', description: 'desc, with comma' },
      { check: 'Y_CHECK', severity: 'LOW', confidence: 'TENTATIVE', file: 'N/A', location: '0:0', sample: 'N/A', description: 'd' },
    ]);
    expect(() => parseFindings('nothing')).toThrow();
  });
});
