// One place decides who the buyer waits for (contract §8.1.1): core builds every merchant client in
// merchant-services.ts with the priority request-priority.ts gives its caller. Read from the source, so that a new client built elsewhere (and so marked
// interactive by default, ahead of the buyer's own requests) fails here instead of slipping by.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLER_PRIORITY } from '../../../src/core/merchant/request-priority';

const CORE = path.resolve(__dirname, '../../../src/core');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const files = sources(CORE).map((file) => ({ file: path.relative(CORE, file), text: fs.readFileSync(file, 'utf8') }));

describe('request priority: one place decides', () => {
  it('every merchant client of core is built in merchant-services.ts with its caller’s priority from the table', () => {
    const calls = files.flatMap(({ file, text }) => [...text.matchAll(/createMerchantClient\(([^)]*)\)/g)].map((m) => ({ file, args: m[1] ?? '' })));
    const builders = calls.filter((c) => !c.args.includes(': RequestSender'));
    expect(builders.length).toBeGreaterThan(0);
    expect([...new Set(builders.map((c) => c.file))]).toEqual(['merchant-services.ts']);
    for (const call of builders) expect(call.args).toMatch(/CALLER_PRIORITY[[.]/);
  });

  it('the buyer is interactive and every worker nobody waits on is background', () => {
    expect(CALLER_PRIORITY.buyer).toBe('interactive');
    for (const caller of ['catalogSync', 'watchedPoll', 'orderPoll', 'casePoll', 'webhookSide', 'workerProbe'] as const) expect(CALLER_PRIORITY[caller]).toBe('background');
    // Reconciliation's thousand-order read yields to whatever else the buyer does meanwhile (contract §12.2).
    expect(CALLER_PRIORITY.reconcile).toBe('background');
  });
});
