// Electronegativity over main, the preload and the page (scripts/electronegativity.ts). Its exit
// code is always 0, so this reads the CSV it wrote: any HIGH or MEDIUM finding fails, unless it is
// one of the few reviewed by hand (electronegativity-reviewed.ts), matched exactly.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFindings, runElectronegativity, type Finding } from '../../scripts/electronegativity';
import { REVIEWED_FINDINGS } from './electronegativity-reviewed';

const root = new URL('../..', import.meta.url).pathname;
const csvFile = join(root, 'test-results/electronegativity.csv');
const isReviewed = (f: Finding): boolean => REVIEWED_FINDINGS.some((r) => r.check === f.check && r.file === f.file && r.sample === f.sample);
const isSevere = (f: Finding): boolean => f.severity === 'HIGH' || f.severity === 'MEDIUM';

let findings: Finding[];

beforeAll(async () => {
  findings = await runElectronegativity(csvFile);
}, 120_000);

describe('Electronegativity', () => {
  it('finds no HIGH or MEDIUM issue beyond the ones reviewed by hand', () => {
    const unreviewed = findings.filter((f) => isSevere(f) && !isReviewed(f)).map((f) => `${f.severity} ${f.check} ${f.file}:${f.location} ${f.sample}`);
    expect(unreviewed).toEqual([]);
  });

  it('has no stale reviewed entry', () => {
    const stale = REVIEWED_FINDINGS.filter((r) => !findings.some((f) => f.check === r.check && f.file === r.file && f.sample === r.sample));
    expect(stale).toEqual([]);
  });

  it('saw the app as one: the CSP, navigation limits and permission handler were all found', () => {
    const globalMisses = findings.filter((f) => f.file === 'N/A' && isSevere(f));
    expect(globalMisses).toEqual([]);
    expect(findings.some((f) => f.file === 'renderer/index.html')).toBe(true);
  });

  it('reads its CSV format, quotes and all', () => {
    const csv = [
      'issue, severity, confidence, filename, location, sample, description, url',
      'X_CHECK,"HIGH","FIRM","a/b.ts","1:2","say(""hi, there"")","desc, with comma",https://example.com',
      'Y_CHECK,"LOW","TENTATIVE","N/A","0:0",N/A,"d",https://example.com',
    ].join('\n');
    expect(parseFindings(csv)).toEqual([
      { check: 'X_CHECK', severity: 'HIGH', confidence: 'FIRM', file: 'a/b.ts', location: '1:2', sample: 'say("hi, there")', description: 'desc, with comma' },
      { check: 'Y_CHECK', severity: 'LOW', confidence: 'TENTATIVE', file: 'N/A', location: '0:0', sample: 'N/A', description: 'd' },
    ]);
    expect(() => parseFindings('nothing')).toThrow();
  });
});
