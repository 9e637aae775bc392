// `sync [--templates]` (progress on stderr, a JSON summary on stdout; templates only where wanted unless
// --templates asks for every variant's) and `search TEXT [--json]` (offline).
import { type ParsedArgs, UsageError } from '../cli-args';
import type { CliContext } from '../cli-context';
import { printJson, printLine, progress, yuan } from '../output';

export async function syncCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  const services = await context.core.merchant();
  let lastReport = 0;
  const summary = await services.syncCatalog({
    templates: args.flags.has('templates') ? 'all' : 'wanted',
    onProgress: (p) => {
      const now = Date.now();
      if (now - lastReport < 1000 && p.done !== p.total) return;
      lastReport = now;
      const eta = p.etaMs === null ? '' : ` eta ${Math.ceil(p.etaMs / 1000)}s`;
      const overall = p.fraction === null ? '' : ` (${Math.floor(p.fraction * 100)}% of the sync)`;
      const step = p.phaseIndex === null ? '' : ` step ${p.phaseIndex}/${p.phaseCount}`;
      progress(`sync${step} ${p.phase}: ${p.done}/${p.total ?? '?'}${overall}${eta}`);
    },
  });
  printJson({ ...summary, counts: context.core.catalog.counts() });
}

export function searchCommand(context: CliContext, args: ParsedArgs): void {
  const text = args.words.slice(1).join(' ');
  if (text.trim() === '') throw new UsageError('search needs some text');
  const result = context.core.search({ text, limit: 50 });
  if (args.flags.has('json')) {
    printJson({ total: result.total, items: result.items.map((item) => ({ ...item, priceFrom: yuan(item.priceFromFen) })) });
    return;
  }
  for (const item of result.items) printLine(`${item.productRef}\t${item.name}\t¥${yuan(item.priceFromFen) ?? '?'}\t${item.availability}${item.inStock ? '' : ' (out of stock)'}`);
  printLine(`${result.total} found`);
}
