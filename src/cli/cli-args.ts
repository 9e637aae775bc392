// Parses `procure-desk --data DIR <command> [args]`: positional words and `--flag value` options, with
// repeatable options (`--entry a=b --entry c=d`). Unknown flags are usage errors, never ignored.

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  dataDir: string;
  words: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
}

/** Options that take no value. */
const BOOLEAN_FLAGS = new Set(['json', 'queue-only', 'until-idle']);

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (BOOLEAN_FLAGS.has(name)) {
      flags.add(name);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    i += 1;
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  const data = options.get('data');
  if (!data || data.length !== 1 || data[0] === undefined) throw new UsageError('--data DIR is required (the folder holding the database and the secret file)');
  options.delete('data');
  return { dataDir: data[0], words, options, flags };
}

/** One value of an option, or undefined; refuses repeats. */
export function optionOf(args: ParsedArgs, name: string): string | undefined {
  const values = args.options.get(name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw new UsageError(`--${name} may be given once`);
  return values[0];
}

export function requiredOption(args: ParsedArgs, name: string): string {
  const value = optionOf(args, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

export function intOption(args: ParsedArgs, name: string, required: true): number;
export function intOption(args: ParsedArgs, name: string, required: false): number | undefined;
export function intOption(args: ParsedArgs, name: string, required: boolean): number | undefined {
  const value = required ? requiredOption(args, name) : optionOf(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number`);
  return Number(value);
}

/** Refuses options a command does not take, so a typo is not silently ignored. */
export function allowOnly(args: ParsedArgs, names: readonly string[]): void {
  for (const name of args.options.keys()) if (!names.includes(name)) throw new UsageError(`unknown option --${name}`);
}
