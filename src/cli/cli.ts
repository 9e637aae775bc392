// `npm run cli -- --data DIR <command>`: the core without a window, for people who script their buying
// (and for tests). Exit codes: 0 success, 2 bad usage, 3 merchant business error, 4 network or
// unknown outcome (see exit-codes.ts).
import { parseCliArgs, UsageError } from './cli-args';
import { openCliContext, type CliContext } from './cli-context';
import { BATCH_USAGE, batchCommand } from './commands/batch-command';
import { connectCommand } from './commands/connect-command';
import { searchCommand, syncCommand } from './commands/catalog-commands';
import { orderConfirmCommand, orderWithdrawCommand } from './commands/order-confirm-commands';
import { orderCreateCommand } from './commands/order-create-command';
import { orderShowCommand, ordersCommand } from './commands/order-read-commands';
import { ngrokAuthtokenCommand } from './commands/ngrok-authtoken-command';
import { runCommand } from './commands/run-command';
import { describeFailure, EXIT } from './exit-codes';

const USAGE = `usage: npm run cli -- --data DIR <command>   (--help: this text)
  connect --base-url URL --user-id ID [--ca-cert FILE]   (API key from PROCURE_API_KEY or stdin)
  sync [--templates]   (details of every product; order templates only for watched products and variants
                        ordered in the last 30 days; --templates: one for every variant, as before)
  search TEXT [--json]
  order create --product N [--variant N] --units N [--entry fieldRef=value …] [--max-price YUAN] [--callback-url URL] [--queue-only] [--json]
                (--max-price: the unit price you confirm; without it the cached price, printed; a higher price at send time exits 3)
  order confirm REF [--units N] [--entry fieldRef=value …] [--max-price YUAN]   (after 409101 or a price/stock park: send again)
  order withdraw REF                                         (give up an order the merchant does not hold; an unknown outcome is checked first)
  order show REF --json
  orders --json
${BATCH_USAGE}
  run [--until-idle] [--webhook-port N] [--tunnel loopback|ngrok|cloudflared|url:URL]
  tunnel ngrok-authtoken   (the token from PROCURE_NGROK_AUTHTOKEN or stdin; used by --tunnel ngrok)
PROCURE_PASSPHRASE protects the key and the card vault in DIR (unset: a key file DIR/passphrase.key, mode 0600).`;

async function dispatch(context: CliContext, words: string[], args: Parameters<typeof connectCommand>[1]): Promise<number> {
  const [command, sub] = words;
  if (command === 'connect') await connectCommand(context, args);
  else if (command === 'sync') await syncCommand(context, args);
  else if (command === 'search') searchCommand(context, args);
  else if (command === 'order' && sub === 'create') return orderCreateCommand(context, args);
  else if (command === 'order' && sub === 'confirm') return orderConfirmCommand(context, args);
  else if (command === 'order' && sub === 'withdraw') return orderWithdrawCommand(context, args);
  else if (command === 'order' && sub === 'show') orderShowCommand(context, args);
  else if (command === 'orders') ordersCommand(context, args);
  else if (command === 'batch') return batchCommand(context, args);
  else if (command === 'run') await runCommand(context, args);
  else if (command === 'tunnel' && sub === 'ngrok-authtoken') await ngrokAuthtokenCommand(context, args);
  else throw new UsageError(`unknown command: ${words.join(' ') || '(none)'}`);
  return EXIT.ok;
}

async function main(): Promise<number> {
  let context: CliContext | null = null;
  try {
    const args = parseCliArgs(process.argv.slice(2));
    if (args.help) {
      process.stdout.write(`${USAGE}\n`);
      return EXIT.ok;
    }
    context = await openCliContext(args.dataDir);
    return await dispatch(context, args.words, args);
  } catch (error) {
    const failure = describeFailure(error);
    const message = context ? context.logger.redact(failure.message) : failure.message;
    process.stderr.write(`error: ${message}\n`);
    if (failure.code === EXIT.usage && error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    return failure.code;
  } finally {
    await context?.core.close();
    await context?.logFile.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT.failure);
  },
);
