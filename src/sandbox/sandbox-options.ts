// The sandbox's command line (docs/sandbox.md), parsed strictly with node:util's parseArgs: an unknown
// flag or a bad value stops start-up with a message rather than running a sandbox that is not the one
// asked for.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { CallbackPolicy } from './domain/url-rules';

export interface SandboxOptions {
  port: number;
  controlPort: number;
  products: number;
  seed: number;
  timeScale: number;
  domain: string;
  callbackPolicy: CallbackPolicy;
  http: boolean;
  balanceFen: number;
  subscriptionTtlSeconds: number;
  autoAdvance: boolean;
  caDir: string | null;
  exitOnStdinClose: boolean;
  /** --help: print SANDBOX_USAGE and start nothing. */
  help?: boolean;
}

export const DEFAULT_OPTIONS: SandboxOptions = {
  port: 0,
  controlPort: 0,
  products: 200,
  seed: 1,
  timeScale: 1,
  domain: '127.0.0.1',
  callbackPolicy: 'loopback',
  http: false,
  balanceFen: 1_000_000,
  subscriptionTtlSeconds: 7 * 86_400,
  autoAdvance: true,
  caDir: null,
  exitOnStdinClose: false,
};

/**
 * The built-in demo merchant's catalog size: every kind of product is there from 50 on (the
 * coverage set), and a first sync under the real quotas takes seconds instead of minutes.
 */
export const DEMO_PRODUCTS = 60;

export class UsageError extends Error {}

function integer(flag: string, text: string | undefined, min: number, max: number): number {
  if (text === undefined || !/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}`);
  }
  return Number(text);
}

export const SANDBOX_USAGE = `usage: npm run sandbox -- [options]   (docs/sandbox.md has the details)
  --port N                  the OpenAPI port on 127.0.0.1 (default: a free one)
  --control-port N          the control API port on 127.0.0.1 (default: a free one)
  --products N              catalog size (default 200)
  --seed N                  the catalog is the same for the same seed and size (default 1)
  --time-scale X            sandbox time runs X times faster (default 1)
  --domain NAME             the main OpenAPI domain (default 127.0.0.1)
  --callback-policy P       loopback (default) or strict
  --http                    serve the OpenAPI over plain HTTP (debugging only)
  --balance YUAN            starting balance of the first account (default 10000)
  --subscription-ttl S      product subscription lifetime, sandbox seconds (default 604800)
  --auto-advance on|off     orders and refunds move by themselves (default on)
  --ca-dir DIR              where the generated CA lives (default: a new temporary folder)
  --exit-on-stdin-close     stop when standard input closes
  --help                    print this text`;

const OPTIONS = {
  port: { type: 'string' },
  'control-port': { type: 'string' },
  products: { type: 'string' },
  seed: { type: 'string' },
  'time-scale': { type: 'string' },
  domain: { type: 'string' },
  'callback-policy': { type: 'string' },
  http: { type: 'boolean' },
  balance: { type: 'string' },
  'subscription-ttl': { type: 'string' },
  'auto-advance': { type: 'string' },
  'ca-dir': { type: 'string' },
  'exit-on-stdin-close': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

function isKnownOption(name: string): name is keyof typeof OPTIONS {
  return Object.hasOwn(OPTIONS, name);
}

export function parseSandboxArgs(argv: readonly string[]): SandboxOptions {
  const options: SandboxOptions = { ...DEFAULT_OPTIONS };
  // Not strict: the tokens are checked here, so the refusals keep the sandbox's words.
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional') throw new UsageError(`unknown option ${token.value}`);
    if (token.kind === 'option-terminator') throw new UsageError('unknown option --');
    const { name, rawName: flag } = token;
    if (!isKnownOption(name)) throw new UsageError(`unknown option ${flag}`);
    if (OPTIONS[name].type === 'boolean' && token.value !== undefined) throw new UsageError(`${flag} takes no value`);
    const value = (): string | undefined => token.value;
    switch (name) {
      case 'port':
        options.port = integer(flag, value(), 0, 65_535);
        break;
      case 'control-port':
        options.controlPort = integer(flag, value(), 0, 65_535);
        break;
      case 'products':
        options.products = integer(flag, value(), 1, 1_000_000);
        break;
      case 'seed':
        options.seed = integer(flag, value(), 0, 2 ** 31 - 1);
        break;
      case 'time-scale': {
        const text = value();
        const scale = Number(text);
        if (text === undefined || !Number.isFinite(scale) || scale <= 0 || scale > 100_000) throw new UsageError('--time-scale takes a number above 0');
        options.timeScale = scale;
        break;
      }
      case 'domain': {
        const domain = value();
        if (!domain || !/^[a-z0-9.-]+$/i.test(domain)) throw new UsageError('--domain takes a host name');
        options.domain = domain.toLowerCase();
        break;
      }
      case 'callback-policy': {
        const policy = value();
        if (policy !== 'loopback' && policy !== 'strict') throw new UsageError('--callback-policy takes loopback or strict');
        options.callbackPolicy = policy;
        break;
      }
      case 'http':
        options.http = true;
        break;
      case 'balance': {
        const text = value() ?? '';
        const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
        if (!match) throw new UsageError('--balance takes yuan with at most two decimals');
        options.balanceFen = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
        break;
      }
      case 'subscription-ttl':
        options.subscriptionTtlSeconds = integer(flag, value(), 1, 10 * 365 * 86_400);
        break;
      case 'auto-advance': {
        const mode = value();
        if (mode !== 'on' && mode !== 'off') throw new UsageError('--auto-advance takes on or off');
        options.autoAdvance = mode === 'on';
        break;
      }
      case 'ca-dir': {
        const dir = value();
        if (!dir) throw new UsageError('--ca-dir takes a folder');
        options.caDir = dir;
        break;
      }
      case 'exit-on-stdin-close':
        options.exitOnStdinClose = true;
        break;
      case 'help':
        options.help = true;
        break;
    }
  }
  return options;
}
