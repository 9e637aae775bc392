// Prints the closing line CI reads ("tests: N passed, N failed") from vitest's JSON reports (the unit
// run's and the end-to-end run's, added up), so that a run which executed no test cannot pass for a
// green one. Every report named must exist: a missing one means that runner never ran.
import { existsSync, readFileSync } from 'node:fs';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTests: number;
}

const files = process.argv.length > 2 ? process.argv.slice(2) : ['test-results/vitest.json', 'test-results/vitest-e2e.json'];
const total = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTotalTests: 0 };
let missing = 0;
for (const file of files) {
  if (!existsSync(file)) {
    missing++;
    console.error(`no test report at ${file}: the test runner did not run`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
  total.numPassedTests += report.numPassedTests;
  total.numFailedTests += report.numFailedTests;
  total.numPendingTests += report.numPendingTests;
  total.numTotalTests += report.numTotalTests;
}
const failed = total.numFailedTests + missing;
console.log(`tests: ${total.numPassedTests} passed, ${failed} failed, ${total.numPendingTests} skipped`);
process.exit(failed === 0 && total.numTotalTests > 0 ? 0 : 1);
