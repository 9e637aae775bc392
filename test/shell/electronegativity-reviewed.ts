// Electronegativity findings of MEDIUM severity that were reviewed by hand and stay. Each one is
// matched exactly (check, file, code line), so a new finding — even of the same check elsewhere —
// fails the test, and an entry whose code is gone fails it too (the list cannot go stale).
// Keep this list short: fix the code when that is possible.
export interface ReviewedFinding {
  check: string;
  file: string;
  sample: string;
  why: string;
}

export const REVIEWED_FINDINGS: readonly ReviewedFinding[] = [
  {
    check: 'PRELOAD_JS_CHECK',
    file: 'main/main-window.ts',
    sample: 'preload: preloadPath(),',
    why:
      'Raised for every preload ("review the use of preload scripts"). Reviewed: the preload runs sandboxed with contextIsolation and exposes only the contract-generated object (test/shell/preload.test.ts).',
  },
  {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'main/security.ts',
    sample: 'shell.openExternal(url).catch((error: unknown) => policy.onError?.(error));',
    why: 'Raised for any non-literal URL. Reviewed: only https URLs whose host is on the allow-list reach it (isAllowedExternalUrl, test/shell/security.test.ts).',
  },
];
