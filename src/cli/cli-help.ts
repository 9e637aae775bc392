// The usage texts of `npm run cli`: every command's synopsis (`--help`, and after a usage error), and
// one command's own (`<command> --help`), both from the command table.
import { UsageError } from './cli-args';
import { COMMANDS, COMMON_EXIT_CODES, commandsUnder, findCommand, synopsisOf, type CliCommand } from './command-table';
import { FILE_LANGUAGE_LINE } from './file-language';

const PREFIX = 'npm run cli -- --data DIR';
const PROFILE_LINE = 'Every command takes --profile NAME (a merchant profile\'s name in any case, or its id): without it the active profile, or the one holding the order, case or batch the command names.';

export function generalUsage(): string {
  return [
    `usage: ${PREFIX} <command>   (<command> --help: that command's usage)`,
    ...COMMANDS.map((command) => `  ${synopsisOf(command)}`),
    PROFILE_LINE,
    FILE_LANGUAGE_LINE,
    'PROCURE_PASSPHRASE protects the key and the card vault in DIR (unset: a key file DIR/passphrase.key, mode 0600).',
    COMMON_EXIT_CODES,
  ].join('\n');
}

export function commandUsage(command: CliCommand): string {
  return [`usage: ${PREFIX} ${synopsisOf(command)}`, '', command.help, PROFILE_LINE, FILE_LANGUAGE_LINE, '', COMMON_EXIT_CODES].join('\n');
}

/** What `--help` prints for these words: the general usage, one command's, or a group's synopses. */
export function helpFor(words: readonly string[]): string {
  if (words.length === 0) return generalUsage();
  const command = findCommand(words);
  if (command !== null) return commandUsage(command);
  const group = commandsUnder(words);
  if (group.length > 0) return [`usage: ${PREFIX} <command>   (<command> --help: that command's usage)`, ...group.map((c) => `  ${synopsisOf(c)}`)].join('\n');
  throw new UsageError(`unknown command: ${words.join(' ')}`);
}
