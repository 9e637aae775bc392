// An idle process that watches its own event loop the way a bench watches the host's: the floor of
// what the machine does to any event loop meanwhile. On a shared two-CPU box a process that does
// nothing is still late when it is not scheduled; a host no later than this witness lost nothing to
// its own work. A child process of its own (plain node, no loader), started before the window opens.
import { spawn } from 'node:child_process';

export interface WitnessReading {
  /** Lateness beyond the timer's tick, ms. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface LoopWitness {
  /** Starts watching (clears what was seen before). */
  start(): void;
  /** Stops watching and says what it saw. */
  read(): Promise<WitnessReading>;
  close(): Promise<void>;
}

const WITNESS = `
const { monitorEventLoopDelay } = require('node:perf_hooks');
const resolution = Number(process.argv[1]);
const histogram = monitorEventLoopDelay({ resolution });
const late = (ns) => Math.max(0, ns / 1e6 - resolution);
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => {
  if (message === 'start') { histogram.reset(); histogram.enable(); return; }
  if (message === 'read') {
    histogram.disable();
    process.send({ p50: late(histogram.percentile(50)), p99: late(histogram.percentile(99)), max: late(histogram.max) });
  }
});
`;

export function startLoopWitness(resolutionMs: number): LoopWitness {
  const child = spawn(process.execPath, ['-e', WITNESS, String(resolutionMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: {} });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    start: () => child.send('start'),
    read: () =>
      new Promise((resolve, reject) => {
        child.once('message', (reading: unknown) => resolve(reading as WitnessReading));
        child.once('exit', () => reject(new Error('the loop witness ended before it answered')));
        child.send('read');
      }),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.disconnect();
      await exited;
    },
  };
}
