// Prints the closing line CI reads ("tests: N passed, N failed") from vitest's JSON report, so that a
// run which executed no test cannot pass for a green one.
import { existsSync, readFileSync } from 'node:fs';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTests: number;
}

const file = process.argv[2] ?? 'test-results/vitest.json';
if (!existsSync(file)) {
  console.log('tests: 0 passed, 1 failed');
  console.error(`no test report at ${file}: the test runner did not run`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`);
process.exit(report.numFailedTests === 0 && report.numTotalTests > 0 ? 0 : 1);
