// The GitHub workflows (.github/workflows) cannot run here: they are checked instead. Each passes
// GitHub's workflow schema (@action-validator/core, the action-validator CLI's WASM build), and each
// does what docs/developers.md promises: CI on three OSes with the real-Electron smoke suite on all
// three; a release built on each target's own OS after its own `npm ci`; actions pinned by commit.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const workflowsDir = join(root, '.github/workflows');
const text = (name: string): string => readFileSync(join(workflowsDir, name), 'utf8');

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly name?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly with?: Readonly<Record<string, unknown>>;
}
interface Job {
  readonly 'runs-on': string;
  readonly needs?: string | readonly string[];
  readonly 'timeout-minutes'?: number;
  readonly permissions?: Readonly<Record<string, string>>;
  readonly container?: { readonly image: string };
  readonly strategy?: { readonly matrix?: { readonly os?: readonly string[] } };
  readonly steps: readonly Step[];
}
interface Workflow {
  readonly on: Readonly<Record<string, unknown>>;
  readonly permissions?: Readonly<Record<string, string>>;
  readonly concurrency?: { readonly group: string; readonly 'cancel-in-progress': boolean };
  readonly jobs: Readonly<Record<string, Job>>;
}

function isWorkflow(value: unknown): value is Workflow {
  return typeof value === 'object' && value !== null && 'jobs' in value && typeof value.jobs === 'object' && value.jobs !== null && 'on' in value;
}

function workflow(name: string): Workflow {
  const parsed = load(text(name));
  if (!isWorkflow(parsed)) throw new Error(`${name} is not a workflow`);
  return parsed;
}

const job = (flow: Workflow, name: string): Job => {
  const found = flow.jobs[name];
  if (found === undefined) throw new Error(`no job ${name}`);
  return found;
};
const runs = (of: Job): string => of.steps.map((step) => step.run ?? '').join('\n');
const workflowFiles = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));

describe("the workflows pass GitHub's workflow schema", () => {
  it.each(workflowFiles)('%s is valid', (name) => {
    expect(validateWorkflow(text(name)).errors).toEqual([]);
  });

  it('are the two the release process names', () => {
    expect(workflowFiles.sort()).toEqual(['ci.yml', 'release.yml']);
  });

  it('the validator does bite: a misspelt key, a wrong permission, a job needing no such job, broken YAML', () => {
    expect(validateWorkflow(text('ci.yml').replace('timeout-minutes: 60', 'timeout-minutez: 60')).errors[0]).toMatchObject({ path: '/jobs/checks' });
    expect(validateWorkflow(text('ci.yml').replace('contents: read', 'contents: writ')).errors[0]).toMatchObject({ path: '/permissions' });
    expect(validateWorkflow(text('release.yml').replace('needs: [windows, macos, linux]', 'needs: [windows, macos, linx]')).errors[0]?.code).toBe('unresolved_job');
    expect(validateWorkflow(text('release.yml').replace('jobs:', 'jobs: [')).errors[0]?.code).toBe('parse_error');
  });
});

describe('every workflow is pinned and least-privileged', () => {
  it.each(workflowFiles)('%s: every action by its full commit SHA, with the version it is beside', (name) => {
    const uses = Object.values(workflow(name).jobs).flatMap((of) => of.steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses])));
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    // The version comment a reader (and Dependabot) reads beside each pin.
    for (const line of text(name).split('\n').filter((l) => /^\s*(- )?uses: /.test(l))) expect(line).toMatch(/@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it.each(workflowFiles)('%s: read-only by default, write only where a release is made; every job has a timeout', (name) => {
    const flow = workflow(name);
    expect(flow.permissions).toBeDefined();
    expect(Object.values(flow.permissions ?? {}).every((level) => level !== 'write')).toBe(true);
    for (const [id, of] of Object.entries(flow.jobs)) {
      expect(of['timeout-minutes'], id).toBeGreaterThan(0);
      const writes = Object.entries(of.permissions ?? {}).filter(([, level]) => level === 'write');
      expect(writes.every(([scope]) => name === 'release.yml' && scope === 'contents'), id).toBe(true);
    }
    for (const step of Object.values(flow.jobs).flatMap((of) => of.steps)) {
      if (step.uses?.startsWith('actions/checkout@') === true) expect(step.with?.['persist-credentials']).toBe(false);
    }
  });
});

describe('CI', () => {
  const ci = workflow('ci.yml');

  it('runs on every push and pull request, and a newer push cancels the older run', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    expect(ci.concurrency).toMatchObject({ 'cancel-in-progress': true });
    expect(ci.concurrency?.group).toContain('github.ref');
  });

  it('type-checks, lints and runs the unit tests on Ubuntu, Windows and macOS, with Node 24 from .node-version', () => {
    const checks = job(ci, 'checks');
    expect(checks.strategy?.matrix?.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    expect(checks['runs-on']).toBe('${{ matrix.os }}');
    const node = checks.steps.find((step) => step.uses?.startsWith('actions/setup-node@') === true);
    expect(node?.with).toMatchObject({ 'node-version-file': '.node-version', cache: 'npm' });
    expect(readFileSync(join(root, '.node-version'), 'utf8').trim()).toMatch(/^24\b/);
    const commands = checks.steps.map((step) => step.run ?? '');
    const at = (command: string): number => commands.findIndex((run) => run.startsWith(command));
    expect(at('npm ci')).toBeGreaterThanOrEqual(0);
    expect(at('npm ci')).toBeLessThan(at('npm run typecheck'));
    expect(at('npm run typecheck')).toBeLessThan(at('npm run lint'));
    expect(at('npm run lint')).toBeLessThan(at('npx vitest run'));
  });

  it('runs the end-to-end suite in Debian’s Chromium on Linux', () => {
    const e2e = job(ci, 'e2e');
    expect(e2e['runs-on']).toBe('ubuntu-latest');
    expect(e2e.container?.image).toMatch(/^debian:/);
    expect(runs(e2e)).toMatch(/apt-get install [^\n]*\bchromium\b/);
    expect(runs(e2e)).toContain('npm run build:web && npm run test:e2e');
  });

  it('runs the real-Electron smoke suite on all three OSes, with the binary fetched, the app built, Linux under xvfb', () => {
    const electron = job(ci, 'electron');
    expect(electron.strategy?.matrix?.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    const commands = runs(electron);
    expect(commands.indexOf('npm ci')).toBeLessThan(commands.indexOf('npx install-electron'));
    expect(commands.indexOf('npx install-electron')).toBeLessThan(commands.indexOf('npm run build'));
    const smoke = electron.steps.filter((step) => step.run?.includes('npm run test:electron') === true);
    expect(smoke.map((step) => step.if)).toEqual(["runner.os == 'Linux'", "runner.os != 'Linux'"]);
    expect(smoke[0]?.run).toContain('xvfb-run --auto-servernum npm run test:electron');
    // The smoke suite is the one `npm run test:electron` runs (vitest.electron.config.ts, test/electron).
    expect(commands).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
  });
});

describe('release', () => {
  const release = workflow('release.yml');
  const targets = ['windows', 'macos', 'linux'] as const;

  it('runs on version tags only, never cancelling a release half way', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
    expect(release.concurrency).toMatchObject({ 'cancel-in-progress': false });
    expect(release.permissions).toEqual({});
  });

  it('builds each target on its own OS after its own npm ci, then the licences, then electron-builder publishing', () => {
    expect(job(release, 'windows')['runs-on']).toBe("${{ vars.WINDOWS_SIGNING_RUNNER || 'windows-latest' }}");
    expect(job(release, 'macos')['runs-on']).toMatch(/^macos-/);
    expect(job(release, 'linux')['runs-on']).toMatch(/^ubuntu-/);
    const builds = { windows: /electron-builder "\$\{args\[@\]\}"/, macos: /npx electron-builder --mac --publish always/, linux: /npx electron-builder --linux --publish always/ };
    for (const target of targets) {
      const commands = runs(job(release, target));
      const order = ['npm ci', 'npm run build', 'npm run licenses'].map((command) => commands.indexOf(command));
      expect(order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] ?? 0))), target).toBe(true);
      expect(commands, target).toMatch(builds[target]);
      expect(commands.search(builds[target]), target).toBeGreaterThan(order[2] ?? 0);
      // No dependency cache in a release: what ships comes from the registry and the lock file only.
      const node = job(release, target).steps.find((step) => step.uses?.startsWith('actions/setup-node@') === true);
      expect(node?.with?.['package-manager-cache'], target).toBe(false);
    }
    expect(runs(job(release, 'windows'))).toContain('args=(--win --publish always');
  });

  it('publishes only from the release jobs: into one draft made first, made public after all three built', () => {
    const draft = job(release, 'draft');
    expect(runs(draft)).toContain('gh release create "$TAG" --repo "$GITHUB_REPOSITORY" --draft --verify-tag');
    expect(runs(draft)).toContain('does not match package.json version');
    for (const target of targets) expect(job(release, target).needs).toBe('draft');
    const publish = job(release, 'publish');
    expect(publish.needs).toEqual(['windows', 'macos', 'linux']);
    expect(runs(publish)).toContain('--draft=false');
    expect(text('ci.yml')).not.toContain('--publish');
  });

  it('signs and notarises from secrets, never from the repository: mac certificate and API key, Windows by token, KSP or Azure', () => {
    const mac = job(release, 'macos').steps.find((step) => step.run?.includes('electron-builder') === true);
    expect(mac?.env).toMatchObject({ CSC_LINK: '${{ secrets.MAC_CSC_LINK }}', CSC_KEY_PASSWORD: '${{ secrets.MAC_CSC_KEY_PASSWORD }}', APPLE_API_KEY_P8: '${{ secrets.APPLE_API_KEY_P8 }}', APPLE_API_KEY_ID: '${{ secrets.APPLE_API_KEY_ID }}', APPLE_API_ISSUER: '${{ secrets.APPLE_API_ISSUER }}' });
    const win = job(release, 'windows').steps.find((step) => step.run?.includes('electron-builder') === true);
    expect(win?.env).toMatchObject({ AZURE_CLIENT_SECRET: '${{ secrets.AZURE_CLIENT_SECRET }}', WIN_SIGN_CERT_SHA1: '${{ vars.WIN_SIGN_CERT_SHA1 }}', WIN_PUBLISHER_NAME: '${{ vars.WIN_PUBLISHER_NAME }}' });
    expect(win?.run).toContain('-c.win.azureSignOptions.publisherName=$WIN_PUBLISHER_NAME');
    // A secret reaches a step only through its environment, never its command line.
    for (const of of Object.values(release.jobs)) for (const step of of.steps) expect(step.run ?? '').not.toContain('secrets.');
    const verify = job(release, 'windows').steps.find((step) => step.run?.includes('Get-AuthenticodeSignature') === true);
    expect(verify?.run).toContain('$env:WIN_PUBLISHER_NAME');
  });

  it('uploads each build’s SBOM and third-party notices to the release', () => {
    for (const target of targets) expect(runs(job(release, target)), target).toMatch(/gh release upload "\$TAG" [^\n]*\.cdx\.json [^\n]*THIRD_PARTY_NOTICES\.txt/);
  });
});
