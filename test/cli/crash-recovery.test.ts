// THE CRASH TEST (one clientOrderRef per intent, stored before the first send): CLI processes submitting orders are killed with SIGKILL at many points
// (before the intent is written, after it is written, while the request is in flight, after the
// merchant charged but before the answer was stored, and in the middle of a recovery run). Then
// `run --until-idle` recovers, and the merchant's ledger must show exactly one charge per accepted
// intent, no charge for a ref this machine does not know (no intent lost, no new ref made up), and
// no intent left unsettled.
//
// The windows are made wide on purpose: the sandbox delays each request before acting on it
// (`latencyMs`, in flight, nothing charged yet), and a TCP relay holds each answer on its way back
// (`downlinkDelayMs`: charged, the client does not know yet). Most kills come at random delays over
// a calibrated submission; some are aimed at an observed state (the row marked 'sending', a new
// ledger charge) so that every run covers the worst windows instead of hoping to. Two lanes (each
// its own account, data folder and relay) run side by side to fit more kills in the time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, listOrders, pickCardProduct, runCli, spawnCli, TcpRelay, type LedgerEntry, type SpawnedCli } from './cli-kit';

const LANES = 2;
/** Kills per lane; a cycle whose child finished before its kill time does not count. */
const KILLS_PER_LANE = 13;
const MAX_CYCLES_PER_LANE = 24;
/** Each cycle's kind, in a fixed rotation so that every kind is covered in every run. */
const SCHEDULE = ['random', 'onCharge', 'random', 'queueOnly', 'onSending', 'random', 'run', 'random'] as const;
type CycleKind = (typeof SCHEDULE)[number];

type Phase = 'before-intent' | 'written-not-sent' | 'in-flight-not-charged' | 'charged-not-stored' | 'finished' | 'recovery-killed' | 'exited-before-kill';

interface Lane {
  index: number;
  userId: string;
  apiKey: string;
  dataDir: string;
  relay: TcpRelay;
  /** Real milliseconds of one uninterrupted `order create`, spawn to exit. */
  calibratedMs: number;
  /** When, in that run, its intent appeared in the database (start-up is most of a submission). */
  writtenAtMs: number;
}

interface KillNote {
  lane: number;
  kind: CycleKind;
  delayMs: number;
  phase: Phase;
  /** Refs found 'sending' right after the kill (a request may have left), split by the ledger. */
  sendingCharged: string[];
  sendingNotCharged: string[];
}

let sandbox: RunningSandbox;
let root: string;
let productRef: number;
const lanes: Lane[] = [];

const randomBetween = (low: number, high: number): number => low + Math.random() * (high - low);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface DbWatch {
  /** The intents of a lane as its database holds them right now (what the next process will see). */
  statuses(): Map<string, string>;
  close(): void;
}

/** A reader beside the CLI's writer (WAL lets both work); SQL stays in the test, not in the CLI. */
function openWatch(lane: Lane): DbWatch {
  const db = new Database(join(lane.dataDir, 'procure-desk.sqlite'), { fileMustExist: true, timeout: 10_000 });
  const query = db.prepare<[], { client_order_ref: string; status: string }>('SELECT client_order_ref, status FROM order_intents');
  return { statuses: () => new Map(query.all().map((r) => [r.client_order_ref, r.status])), close: () => db.close() };
}

async function chargedRefs(lane: Lane): Promise<Set<string>> {
  return new Set((await chargesOf(sandbox, lane.userId)).map((c) => c.clientOrderRef));
}

async function createLane(index: number): Promise<Lane> {
  const account = await control<{ userId: string; apiKey: string }>(sandbox, 'POST', '/control/accounts', { balance: '100000' });
  const relay = await TcpRelay.start(sandbox.baseUrl);
  const dataDir = join(root, `lane-${index}`);
  const connect = await runCli(dataDir, ['connect', '--base-url', relay.urlFor(sandbox.baseUrl), '--user-id', account.userId, '--ca-cert', sandbox.caCertFile], {
    apiKeyEnv: account.apiKey,
  });
  expect(connect.code, connect.stderr).toBe(0);
  const lane: Lane = { index, userId: account.userId, apiKey: account.apiKey, dataDir, relay, calibratedMs: 0, writtenAtMs: 0 };
  relay.downlinkDelayMs = 250;
  // The first order fetches and caches the template; the second one measures a plain submission.
  const first = await runCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', '1', '--json']);
  expect(first.code, first.stderr).toBe(0);
  const watch = openWatch(lane);
  const before = watch.statuses();
  const spawned = spawnCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', '1', '--json']);
  try {
    await killWhen(
      spawned,
      () => {
        if (lane.writtenAtMs === 0 && [...watch.statuses().keys()].some((ref) => !before.has(ref))) lane.writtenAtMs = Date.now() - spawned.startedAt;
        return false;
      },
      0,
      60_000,
    );
  } finally {
    watch.close();
  }
  const second = await spawned.result;
  expect(second.code, second.stderr).toBe(0);
  lane.calibratedMs = second.ms;
  if (lane.writtenAtMs === 0) lane.writtenAtMs = second.ms / 2;
  return lane;
}

/** Kills when `condition` holds (checked every few ms), or lets the child run to its end. */
async function killWhen(spawned: SpawnedCli, condition: () => Promise<boolean> | boolean, extraDelayMs: number, giveUpMs: number): Promise<number | null> {
  const deadline = Date.now() + giveUpMs;
  let exited = false;
  void spawned.result.then(
    () => (exited = true),
    () => (exited = true),
  );
  while (!exited && Date.now() < deadline) {
    if (await condition()) {
      if (extraDelayMs > 0) await sleep(extraDelayMs);
      spawned.child.kill('SIGKILL');
      return Date.now() - spawned.startedAt;
    }
    await sleep(8);
  }
  return null;
}

function classify(before: Map<string, string>, after: Map<string, string>, charged: Set<string>, exited: boolean): Phase {
  if (exited) return 'exited-before-kill';
  const fresh = [...after.keys()].filter((ref) => !before.has(ref));
  const status = fresh[0] === undefined ? undefined : after.get(fresh[0]);
  if (status === undefined) return 'before-intent';
  if (status === 'queued') return 'written-not-sent';
  if (status === 'sending') return fresh[0] !== undefined && charged.has(fresh[0]) ? 'charged-not-stored' : 'in-flight-not-charged';
  return 'finished';
}

async function killCycle(lane: Lane, kind: CycleKind): Promise<KillNote> {
  await control(sandbox, 'POST', '/control/faults', { latencyMs: Math.round(randomBetween(150, 400)) });
  lane.relay.downlinkDelayMs = Math.round(randomBetween(150, 400));
  const watch = openWatch(lane);
  const before = watch.statuses();
  const chargedBefore = await chargedRefs(lane);
  const args =
    kind === 'run'
      ? ['run', '--until-idle']
      : ['order', 'create', '--product', String(productRef), '--units', '1', '--json', ...(kind === 'queueOnly' ? ['--queue-only'] : [])];
  const spawned = spawnCli(lane.dataDir, args, { secrets: [lane.apiKey], timeoutMs: 120_000 });
  const giveUpMs = lane.calibratedMs * 4;
  let delayMs: number | null;
  try {
    if (kind === 'onCharge' || (kind === 'run' && Math.random() < 0.5)) {
      // Aimed at the worst window: the merchant has charged, its answer is still held by the relay.
      delayMs = await killWhen(spawned, async () => [...(await chargedRefs(lane))].some((ref) => !chargedBefore.has(ref)), 0, giveUpMs);
    } else if (kind === 'onSending') {
      // Aimed at a request in flight: a row newly marked 'sending', the sandbox still sleeps on it.
      const newlySending = (): boolean => [...watch.statuses()].some(([ref, status]) => status === 'sending' && before.get(ref) !== 'sending');
      delayMs = await killWhen(spawned, newlySending, Math.round(randomBetween(0, 100)), giveUpMs);
    } else {
      // Start-up (tsx, scrypt, SQLite) is most of a submission and varies with the machine's load,
      // so most kills are timed from the moment this child's intent appears rather than from spawn.
      const beforeWrite = Math.random() < (kind === 'queueOnly' ? 0.4 : 0.2);
      const absoluteAt = randomBetween(0.3, 1) * lane.writtenAtMs;
      const offset = kind === 'queueOnly' ? randomBetween(0, 30) : randomBetween(0, Math.max(300, lane.calibratedMs - lane.writtenAtMs));
      let writtenAt = 0;
      const due = (): boolean => {
        const now = Date.now();
        if (beforeWrite) return now - spawned.startedAt >= absoluteAt;
        if (writtenAt === 0 && [...watch.statuses().keys()].some((ref) => !before.has(ref))) writtenAt = now;
        return writtenAt > 0 && now - writtenAt >= offset;
      };
      delayMs = await killWhen(spawned, due, 0, giveUpMs);
    }
  } finally {
    watch.close();
  }
  const result = await spawned.result;
  const exited = result.signal !== 'SIGKILL';
  if (exited) expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  const afterWatch = openWatch(lane);
  const after = afterWatch.statuses();
  afterWatch.close();
  const charged = await chargedRefs(lane);
  const sending = [...after].filter(([, status]) => status === 'sending').map(([ref]) => ref);
  return {
    lane: lane.index,
    kind,
    delayMs: delayMs ?? result.ms,
    phase: kind === 'run' ? (exited ? 'exited-before-kill' : 'recovery-killed') : classify(before, after, charged, exited),
    sendingCharged: sending.filter((ref) => charged.has(ref)),
    sendingNotCharged: sending.filter((ref) => !charged.has(ref)),
  };
}

async function runLane(lane: Lane): Promise<KillNote[]> {
  const notes: KillNote[] = [];
  for (let i = 0; i < MAX_CYCLES_PER_LANE && notes.filter((n) => n.phase !== 'exited-before-kill').length < KILLS_PER_LANE; i++) {
    notes.push(await killCycle(lane, SCHEDULE[(i + lane.index * 3) % SCHEDULE.length] ?? 'random'));
  }
  return notes;
}

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20', '--time-scale', '1']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-crash-'));
  productRef = (await pickCardProduct(sandbox)).productRef;
  for (let i = 0; i < LANES; i++) lanes.push(await createLane(i));
}, 90_000);

afterAll(async () => {
  for (const lane of lanes) await lane.relay.close();
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

it('SIGKILL at random points of submission loses no order and charges none twice', { timeout: 240_000 }, async () => {
  const started = Date.now();
  const notes = (await Promise.all(lanes.map(runLane))).flat();
  const killsMs = Date.now() - started;

  // Recovery: the next start of the app, with the network as slow as before.
  await control(sandbox, 'POST', '/control/faults', { latencyMs: 150 });
  const recoveryStarted = Date.now();
  const recoveries = await Promise.all(lanes.map((lane) => runCli(lane.dataDir, ['run', '--until-idle'], { secrets: [lane.apiKey], timeoutMs: 120_000 })));
  const recoveryMs = Date.now() - recoveryStarted;
  for (const recovery of recoveries) expect(recovery.code, recovery.stderr).toBe(0);

  let intents = 0;
  let charges = 0;
  for (const lane of lanes) {
    const orders = await listOrders(lane.dataDir);
    const ledger: LedgerEntry[] = await chargesOf(sandbox, lane.userId);
    intents += orders.length;
    charges += ledger.length;
    // Every intent settled; none refused (the account has the money, the product the stock).
    const unsettled = orders.filter((o) => o.status !== 'accepted');
    expect(unsettled, `lane ${lane.index}: intents not accepted`).toEqual([]);
    const accepted = new Set(orders.map((o) => o.clientOrderRef));
    expect(accepted.size).toBe(orders.length);
    // No intent lost: every ref the merchant charged is an accepted intent here.
    const unknownToUs = ledger.filter((c) => !accepted.has(c.clientOrderRef)).map((c) => c.clientOrderRef);
    expect(unknownToUs, `lane ${lane.index}: charges with no local intent`).toEqual([]);
    // Exactly one charge per accepted intent.
    const perRef = new Map<string, number>();
    for (const charge of ledger) perRef.set(charge.clientOrderRef, (perRef.get(charge.clientOrderRef) ?? 0) + 1);
    const duplicated = [...perRef].filter(([, n]) => n > 1);
    expect(duplicated, `lane ${lane.index}: charged more than once`).toEqual([]);
    const neverCharged = orders.filter((o) => !perRef.has(o.clientOrderRef)).map((o) => o.clientOrderRef);
    expect(neverCharged, `lane ${lane.index}: accepted but not charged`).toEqual([]);
    expect(ledger.length).toBe(orders.length);
  }

  const kills = notes.filter((n) => n.phase !== 'exited-before-kill');
  const phases = new Map<string, number>();
  for (const note of notes) phases.set(note.phase, (phases.get(note.phase) ?? 0) + 1);
  // Distinct refs: a ref left 'sending' stays so through later kills until a `run` recovers it.
  const worst = new Set(notes.flatMap((n) => n.sendingCharged)).size;
  const inFlight = new Set(notes.flatMap((n) => n.sendingNotCharged)).size;
  const delays = kills.map((n) => n.delayMs).sort((a, b) => a - b);
  const report = [
    `crash test: ${kills.length} SIGKILLs in ${notes.length} cycles over ${LANES} lanes (${Math.round(killsMs / 1000)} s); kill delays ${delays[0] ?? '-'}..${delays.at(-1) ?? '-'} ms after spawn`,
    `  calibrated submission (intent written at / process done at): ${lanes.map((l) => `${l.writtenAtMs}/${l.calibratedMs} ms`).join(', ')}`,
    `  phases hit: ${[...phases].map(([p, n]) => `${p} ${n}`).join(', ')}`,
    `  orders left 'sending' by kills: ${worst} already charged by the merchant (answer never stored), ${inFlight} not charged at the kill`,
    `  recovery (run --until-idle): ${Math.round(recoveryMs / 1000)} s; intents written ${intents}, all accepted; ledger charges ${charges}, one per intent`,
  ].join('\n');
  console.log(report);

  // The run really exercised the windows that matter (the aimed kills make this certain, not lucky).
  expect(kills.length).toBeGreaterThanOrEqual(25);
  expect(worst, report).toBeGreaterThan(0);
  expect(phases.get('before-intent') ?? 0, report).toBeGreaterThan(0);
  expect(charges).toBe(intents);
});
