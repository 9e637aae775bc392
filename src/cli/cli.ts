// `npm run cli -- --data DIR <command>`: the core without a window, for people who script their buying
// (and for tests). The commands, their options and help are the table in command-table.ts. Exit
// codes: 0 success, 2 bad usage, 3 merchant business error, 4 network or unknown outcome, 5 refunded
// cards without the acknowledgement, 6 reconcile found differences, 1 anything else (see exit-codes.ts).
// With --json an error is also one JSON line on stdout (failureJson), even when the arguments did not parse.
import { optionOf, parseCliArgs, UsageError, type ParsedArgs } from './cli-args';
import { contextForRef, openCliContext, type CliContext } from './cli-context';
import { commandUsage, generalUsage, helpFor } from './cli-help';
import { findCommand, type CliCommand } from './command-table';
import { describeFailure, EXIT, failureJson } from './exit-codes';

/** Options every command takes besides its own: --profile NAME (a profile's name or id) picks the merchant. */
const EVERY_COMMAND_TAKES = ['json', 'profile'];

function commandOf(args: ParsedArgs): CliCommand {
  const command = findCommand(args.words);
  if (command === null) throw new UsageError(`unknown command: ${args.words.join(' ') || '(none)'}`);
  const allowed = new Set([...command.options, ...EVERY_COMMAND_TAKES]);
  for (const name of [...args.options.keys(), ...args.flags]) {
    if (!allowed.has(name)) throw new UsageError(`${command.words.join(' ')} takes no --${name}`);
  }
  return command;
}

/** --json asked for, judged from the raw arguments too: a usage error comes before parsing succeeds. */
const wantsJson = (args: ParsedArgs | null): boolean => args?.flags.has('json') ?? process.argv.slice(2).includes('--json');

async function main(): Promise<number> {
  let context: CliContext | null = null;
  let command: CliCommand | null = null;
  let args: ParsedArgs | null = null;
  try {
    args = parseCliArgs(process.argv.slice(2));
    if (args.help) {
      process.stdout.write(`${helpFor(args.words)}\n`);
      return EXIT.ok;
    }
    // Checked before the data folder is opened: a typo touches nothing.
    command = commandOf(args);
    context = await openCliContext(args.dataDir, optionOf(args, 'profile') ?? null);
    const routed = await contextForRef(context, command.owns?.(args) ?? null);
    return (await command.run(routed, args)) ?? EXIT.ok;
  } catch (error) {
    const failure = describeFailure(error);
    const message = context ? context.logger.redact(failure.message) : failure.message;
    process.stderr.write(`error: ${message}\n`);
    if (wantsJson(args)) process.stdout.write(`${failureJson({ ...failure, message })}\n`);
    if (failure.code === EXIT.usage && error instanceof UsageError) process.stderr.write(`${command === null ? generalUsage() : commandUsage(command)}\n`);
    return failure.code;
  } finally {
    await context?.desk.close();
    await context?.logFile.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    if (wantsJson(null)) process.stdout.write(`${failureJson({ code: EXIT.failure, name: 'FAILURE', message })}\n`);
    process.exit(EXIT.failure);
  },
);
