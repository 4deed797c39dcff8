// A web-test-runner reporter that writes the pass/fail/skip counts to a JSON file for scripts/test-all.mjs.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

function count(suite, totals) {
  for (const t of suite.tests ?? []) {
    if (t.skipped) totals.skipped++;
    else if (t.passed) totals.passed++;
    else totals.failed++;
  }
  for (const s of suite.suites ?? []) count(s, totals);
}

/** @param {{ file: string }} options */
export function countReporter({ file }) {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0, sessionErrors: 0 };
      for (const s of sessions) {
        if (s.testResults) count(s.testResults, totals);
        if (!s.passed && (s.errors?.length ?? 0) > 0) totals.sessionErrors++;
      }
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(totals));
    },
  };
}
