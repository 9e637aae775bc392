// Parses `procure-desk --data DIR <command> [args]` with node:util's parseArgs: positional words and
// `--flag value` options, with repeatable options (`--entry a=b --entry c=d`). Unknown flags are usage
// errors, never ignored.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  dataDir: string;
  words: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
  /** --help (or -h) was given: print the usage and stop. */
  help: boolean;
}

/**
 * Every option some command takes (each command refuses the others with allowOnly); the boolean
 * ones take no value. `--name value` and `--name=value` both work, and options may repeat
 * (`--entry a=b --entry c=d`).
 */
const OPTIONS = {
  data: { type: 'string' },
  // every command: which merchant profile (issue 17)
  profile: { type: 'string' },
  'base-url': { type: 'string' },
  'user-id': { type: 'string' },
  'ca-cert': { type: 'string' },
  product: { type: 'string' },
  variant: { type: 'string' },
  units: { type: 'string' },
  entry: { type: 'string' },
  'max-price': { type: 'string' },
  'callback-url': { type: 'string' },
  'webhook-port': { type: 'string' },
  tunnel: { type: 'string' },
  // vault and after-sales (issue 16)
  order: { type: 'string' },
  card: { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  // vault export --format txt-zip: what each line holds (issue 25)
  lines: { type: 'string' },
  language: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  type: { type: 'string' },
  text: { type: 'string' },
  image: { type: 'string' },
  state: { type: 'string' },
  map: { type: 'string' },
  retry: { type: 'string' },
  results: { type: 'string' },
  json: { type: 'boolean' },
  yes: { type: 'boolean' },
  'acknowledge-refunded': { type: 'boolean' },
  'include-refunded': { type: 'boolean' },
  'not-exported': { type: 'boolean' },
  overwrite: { type: 'boolean' },
  unread: { type: 'boolean' },
  'queue-only': { type: 'boolean' },
  fallback: { type: 'boolean' },
  'until-idle': { type: 'boolean' },
  templates: { type: 'boolean' },
  'discard-unexported-cards': { type: 'boolean' },
  'allow-duplicates': { type: 'boolean' },
  'mark-invalid-rows': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

function isKnownOption(name: string): name is keyof typeof OPTIONS {
  return Object.hasOwn(OPTIONS, name);
}

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  let help = false;
  // Not strict: the tokens are checked here, so the refusals keep this tool's words.
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional') {
      words.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') throw new UsageError('unknown option --');
    const { name, rawName, value } = token;
    // Refused in our words, never echoed: argv is visible to every process on the machine.
    if (name === 'password') throw new UsageError('a password is never taken from the command line (every process can read it): set PROCURE_EXPORT_PASSWORD or write it to standard input');
    if (!isKnownOption(name)) throw new UsageError(`unknown option ${rawName}`);
    if (name === 'help') {
      help = true;
      continue;
    }
    if (OPTIONS[name].type === 'boolean') {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      flags.add(name);
      continue;
    }
    // A value that looks like the next option means this one's value was left out.
    if (value === undefined || (!token.inlineValue && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  const data = options.get('data');
  if (help) return { dataDir: data?.[0] ?? '', words, options, flags, help };
  if (!data || data.length !== 1 || data[0] === undefined) throw new UsageError('--data DIR is required (the folder holding the database and the secret file)');
  options.delete('data');
  return { dataDir: data[0], words, options, flags, help };
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
