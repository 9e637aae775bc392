// Runs the CLI the way a script does: a child process `node cli.mjs --data DIR …` (the entry point of
// `npm run cli`, bundled once per run: no npm or tsx start-up in every child), with the passphrase
// and the API key in the environment or on stdin, never in argv. Also a TCP relay that stands between
// the CLI and the sandbox, so that a test can take the merchant away (and bring the same merchant,
// with its accounts and ledger, back) or slow down the answers on their way back.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { RunningSandbox } from '../support/sandbox-process';
import { CLI_BUNDLE } from '../support/cli-bundle';
import { control } from '../support/merchant-http';

export const PASSPHRASE = 'correct horse battery staple (cli tests)';
/** The CLI's sources bundled once per run (test/support/cli-bundle.ts, built by the suites' global setup). */
export const CLI_ENTRY = [CLI_BUNDLE];

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** What the child was started with, to prove that no credential ever travels in argv. */
  argv: string[];
  ms: number;
}

export interface CliOptions {
  /** Put into PROCURE_API_KEY; the variable is absent otherwise. */
  apiKeyEnv?: string;
  /** Written to the child's stdin (then closed); stdin is closed at once otherwise. */
  stdin?: string;
  /** Values that must never appear in argv (the test's own guard: credentials go by env or stdin). */
  secrets?: readonly string[];
  /** Hard bound: the child is killed and the call fails after this long. */
  timeoutMs?: number;
  /** PROCURE_PASSPHRASE for the child; PASSPHRASE unless given, null leaves it unset. */
  passphrase?: string | null;
  /** More environment variables for the child (e.g. PROCURE_EXPORT_PASSWORD). */
  env?: Record<string, string>;
}

export interface SpawnedCli {
  child: ChildProcess;
  startedAt: number;
  result: Promise<CliResult>;
}

function childEnv(apiKey: string | undefined, passphrase: string | null, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Only what the test gives: an export password never leaks in from the environment tests run in.
  delete env['PROCURE_EXPORT_PASSWORD'];
  Object.assign(env, extra);
  delete env['PROCURE_PASSPHRASE'];
  if (passphrase !== null) env['PROCURE_PASSPHRASE'] = passphrase;
  delete env['PROCURE_API_KEY'];
  if (apiKey !== undefined) env['PROCURE_API_KEY'] = apiKey;
  return env;
}

export function spawnCli(dataDir: string, args: readonly string[], options: CliOptions = {}): SpawnedCli {
  const argv = [...CLI_ENTRY, '--data', dataDir, ...args];
  const secrets = [...(options.secrets ?? []), ...(options.apiKeyEnv === undefined ? [] : [options.apiKeyEnv])];
  for (const secret of secrets) {
    if (argv.some((arg) => arg.includes(secret))) throw new Error('test bug: a credential was about to be passed in argv');
  }
  const startedAt = Date.now();
  const child = spawn(process.execPath, argv, { cwd: process.cwd(), env: childEnv(options.apiKeyEnv, options.passphrase === undefined ? PASSPHRASE : options.passphrase, options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  // A killed child closes its end early; writing to it must not crash the test process.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(options.stdin ?? '');
  const timeoutMs = options.timeoutMs ?? 90_000;
  const result = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, argv: child.spawnargs, ms: Date.now() - startedAt });
    });
  });
  return { child, startedAt, result };
}

export function runCli(dataDir: string, args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return spawnCli(dataDir, args, options).result;
}

/** The first stdout line as JSON (the CLI prints one JSON document per result). */
export function jsonOf<T>(result: CliResult): T {
  const line = result.stdout.split('\n').find((l) => l.trim() !== '');
  if (line === undefined) throw new Error(`no JSON on stdout (exit ${String(result.code)}); stderr: ${result.stderr}`);
  return JSON.parse(line) as T;
}

/** A failure with --json: exactly one line on stdout, `{"error":{…}}`, whose exitCode is the process's (docs/cli.md). */
export interface JsonError {
  error: { code: string; message: string; exitCode: number; merchantCode?: number; requestId?: string | null };
}

/** The failure's JSON line, parsed; throws when stdout holds anything else or the exit codes differ. */
export function jsonErrorOf(result: CliResult): JsonError['error'] {
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  if (lines.length !== 1) throw new Error(`expected one JSON error line on stdout, got ${String(lines.length)}: ${result.stdout.slice(0, 300)}; stderr: ${result.stderr}`);
  const parsed = JSON.parse(lines[0] ?? '') as Partial<JsonError>;
  if (Object.keys(parsed).join() !== 'error' || parsed.error === undefined) throw new Error(`not an error line: ${lines[0] ?? ''}`);
  if (parsed.error.exitCode !== result.code) throw new Error(`error line says exit ${String(parsed.error.exitCode)}, the process exited ${String(result.code)}`);
  return parsed.error;
}

/** A data folder in the temp dir connected to a hostile merchant (its CA file beside the data); throws when connect fails. */
export async function connectedDataDir(merchant: { baseUrl: string; userId: string; apiKey: string; ca: string }, prefix: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dataDir, 'ca.pem'), merchant.ca);
  const connected = await runCli(dataDir, ['connect', '--base-url', merchant.baseUrl, '--user-id', merchant.userId, '--ca-cert', join(dataDir, 'ca.pem')], { apiKeyEnv: merchant.apiKey });
  if (connected.code !== 0) throw new Error(`connect failed (exit ${String(connected.code)}): ${connected.stderr}`);
  return dataDir;
}

export interface OrderRow {
  clientOrderRef: string;
  status: string;
  state: string | null;
  platformOrderRef: string | null;
  productRef: number;
  units: number;
  total: string | null;
  lastErrorCode: string | null;
}

export async function listOrders(dataDir: string): Promise<OrderRow[]> {
  const result = await runCli(dataDir, ['orders', '--json']);
  if (result.code !== 0) throw new Error(`orders --json exited ${String(result.code)}: ${result.stderr}`);
  return jsonOf<OrderRow[]>(result);
}

export interface LedgerEntry {
  kind: 'charge' | 'refund';
  clientOrderRef: string;
  amount: string;
  at: number;
}

export async function ledgerOf(sandbox: RunningSandbox, userId: string): Promise<{ balance: string; entries: LedgerEntry[] }> {
  return control<{ balance: string; entries: LedgerEntry[] }>(sandbox, 'GET', `/control/ledger/${userId}`);
}

export async function chargesOf(sandbox: RunningSandbox, userId: string): Promise<LedgerEntry[]> {
  return (await ledgerOf(sandbox, userId)).entries.filter((e) => e.kind === 'charge');
}

export interface ControlVariant {
  variantRef: number;
  /** A number of yuan in the control API (the interface itself sends yuan text). */
  price: number | string;
  availability: string;
  inventoryType: string;
  remainingUnits: number | null;
  supply: string;
  entryMode: string;
  unitRule: { min: number; max: number; step: number };
}

export interface ControlProduct {
  productRef: number;
  productType: string;
  name: string;
  availability: string;
  variants: ControlVariant[];
}

/** A card product whose single variant sells 1 unit and completes (no refund muddles the ledger); its price as yuan text. */
export async function pickCardProduct(sandbox: RunningSandbox): Promise<{ productRef: number; price: string }> {
  const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
  for (const product of products) {
    const [variant, ...others] = product.variants;
    if (product.productType !== 'card' || product.availability !== 'available' || variant === undefined || others.length > 0) continue;
    if (variant.variantRef !== 0 || variant.supply !== 'succeed' || variant.availability !== 'available' || variant.unitRule.min !== 1) continue;
    if (variant.remainingUnits !== null && variant.remainingUnits < 200) continue;
    return { productRef: product.productRef, price: Number(variant.price).toFixed(2) };
  }
  throw new Error('the sandbox catalog has no plain card product');
}

/** Every file in the data folder (database, its -wal/-shm, the log, the secret file), raw bytes. */
export function filesContaining(dataDir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return readdirSync(dataDir).filter((name) => readFileSync(join(dataDir, name)).includes(bytes));
}

/**
 * A TCP relay on a fixed loopback port in front of the sandbox's HTTPS port. TLS passes through
 * untouched (the certificate names 127.0.0.1, which the relay also is). `cut()` makes the address
 * refuse connections, as a merchant that went away; `restore()` listens on the same port again, so
 * the data folder's stored base URL reaches the same sandbox, account and ledger. `downlinkDelayMs`
 * holds every byte on its way back to the client: the merchant has already acted on the request
 * while the client still waits for the answer.
 */
export class TcpRelay {
  downlinkDelayMs = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  constructor(private readonly targetPort: number) {}

  static async start(targetUrl: string): Promise<TcpRelay> {
    const relay = new TcpRelay(Number(new URL(targetUrl).port));
    await relay.listen(0);
    return relay;
  }

  /** The target URL with the relay's port in place of the sandbox's. */
  urlFor(targetUrl: string): string {
    const url = new URL(targetUrl);
    url.port = String(this.port);
    return url.toString().replace(/\/+$/, '');
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((client) => this.relay(client));
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private relay(client: Socket): void {
    const upstream = createConnection({ host: '127.0.0.1', port: this.targetPort });
    this.sockets.add(client);
    this.sockets.add(upstream);
    const forget = (): void => {
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', forget);
    upstream.on('error', forget);
    // Bytes back to the client keep their order: each is released no earlier than the one before,
    // and a connection the merchant closed is closed for the client only after what it sent.
    let releaseAt = 0;
    client.on('close', forget);
    upstream.on('close', () => setTimeout(forget, Math.max(0, releaseAt - Date.now()) + 1));
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      releaseAt = Math.max(Date.now() + this.downlinkDelayMs, releaseAt);
      setTimeout(() => {
        if (!client.destroyed) client.write(chunk);
      }, releaseAt - Date.now());
    });
  }

  /** The merchant is unreachable: the port refuses connections and open ones are cut. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (this.server === null) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
