// The webhook load generator the benches share: keep-alive HTTP clients on loopback, open-loop (a slow
// answer delays nothing that follows, so queueing shows in the numbers), bounded in connections,
// requests in flight, per-request time and the whole run. It runs off the measured event loop: in a
// worker thread (webhook-ack: the receiver is in the bench process, only its clock must not be skewed)
// or in a child process of its own (host-responsiveness: the bench process is the host being measured,
// so nothing of the load may run on its threads). Latencies are measured from each event's scheduled
// send time (queueing in the generator included: no coordinated omission) and from the actual write.
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { quantile } from './bench-database';

/** Replaced in each body by a unique eventId. */
export const EVENT_ID_MARKER = '__EVENT_ID__';

export interface LoadConfig {
  /** Body templates (JSON text with EVENT_ID_MARKER), used in turn. */
  readonly bodies: readonly string[];
  readonly sockets: number;
  readonly maxInFlight: number;
  readonly timeoutMs: number;
}

export interface PhaseResult {
  rate: number;
  seconds: number;
  sent: number;
  /** From the scheduled send time (queueing in the generator included, no coordinated omission). */
  latencies: number[];
  /** From the moment the request was actually written (the receiver and loopback only). */
  wire: number[];
  errors: number;
  /** Real seconds from the first scheduled send to the last answer. */
  elapsed: number;
}

export interface LoadGenerator {
  /** Posts `rate` events a second for `seconds` to `url`; event ids start with `prefix`. */
  run(rate: number, seconds: number, prefix: string, url: string): Promise<PhaseResult>;
  close(): Promise<void>;
}

// Plain JavaScript, evaluated in the worker or the child: node:http only, nothing to compile. The
// first message is the LoadConfig; then phases; then 'close'.
const LOAD_GENERATOR = `
const threads = require('node:worker_threads');
const http = require('node:http');
const port = threads.parentPort !== null
  ? { on: (f) => threads.parentPort.on('message', f), post: (m) => threads.parentPort.postMessage(m), close: () => threads.parentPort.close() }
  : { on: (f) => process.on('message', f), post: (m) => process.send(m), close: () => process.disconnect() };
// A child whose parent is gone has no one to report to.
if (threads.parentPort === null) process.on('disconnect', () => process.exit(0));
let config = null;
let agent = null;

function runPhase(rate, seconds, prefix, url) {
  return new Promise((resolve) => {
    const { bodies, maxInFlight, timeoutMs, marker } = config;
    const total = Math.round(rate * seconds);
    const interval = 1000 / rate;
    const latencies = [];
    const wire = [];
    let errors = 0, done = 0, inFlight = 0, next = 0;
    const start = performance.now();
    const settle = () => {
      done++;
      if (done === total) resolve({ rate, seconds, sent: total, latencies, wire, errors, elapsed: (performance.now() - start) / 1000 });
    };
    const fire = (i) => {
      const scheduled = start + i * interval;
      if (inFlight >= maxInFlight) { errors++; settle(); return; }
      inFlight++;
      let finished = false;
      const sentAt = performance.now();
      const end = (ok) => {
        if (finished) return;
        finished = true;
        inFlight--;
        const now = performance.now();
        if (ok) { latencies.push(now - scheduled); wire.push(now - sentAt); } else errors++;
        settle();
      };
      const body = bodies[i % bodies.length].replace(marker, prefix + '-' + i);
      const req = http.request(url, { method: 'POST', agent, timeout: timeoutMs, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => { text += chunk; });
        res.on('end', () => end(res.statusCode === 200 && text.trim().toLowerCase() === 'ok'));
        res.on('error', () => end(false));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => end(false));
      req.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) fire(next++);
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - now));
    };
    tick();
  });
}

port.on(async (message) => {
  if (message === 'close') { if (agent !== null) agent.destroy(); port.close(); return; }
  if (config === null) {
    config = message;
    agent = new http.Agent({ keepAlive: true, maxSockets: config.sockets });
    return;
  }
  port.post(await runPhase(message.rate, message.seconds, message.prefix, message.url));
});
`;

interface Channel {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onError(listener: (error: Error) => void): void;
  end(): Promise<void>;
}

function workerChannel(): Channel {
  const worker = new Worker(LOAD_GENERATOR, { eval: true });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => worker.on('error', listener),
    end: async () => {
      worker.postMessage('close');
      await worker.terminate();
    },
  };
}

function processChannel(): Channel {
  // Plain node, no loader: the generator is CommonJS text. The environment carries nothing it needs.
  const child = spawn(process.execPath, ['-e', LOAD_GENERATOR], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: {} });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    post: (message) => {
      if (child.connected) child.send(message as object);
    },
    onMessage: (listener) => child.on('message', (message: unknown) => listener(message)),
    onError: (listener) => {
      child.on('error', listener);
      child.once('exit', (code, signal) => {
        if (code !== 0) listener(new Error(`the webhook load generator exited with ${String(code ?? signal)}`));
      });
    },
    end: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send('close');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Starts the generator in a worker thread ('worker') or in a child process of its own ('process'). */
export function startLoadGenerator(where: 'worker' | 'process', config: LoadConfig): LoadGenerator {
  const channel = where === 'worker' ? workerChannel() : processChannel();
  let pending: { resolve: (result: PhaseResult) => void; reject: (error: Error) => void } | null = null;
  channel.onMessage((result) => {
    const waiting = pending;
    pending = null;
    waiting?.resolve(result as PhaseResult);
  });
  channel.onError((error) => {
    const waiting = pending;
    pending = null;
    waiting?.reject(error);
  });
  channel.post({ ...config, marker: EVENT_ID_MARKER });
  return {
    run: (rate, seconds, prefix, url) =>
      new Promise((resolve, reject) => {
        if (pending !== null) {
          reject(new Error('one phase at a time'));
          return;
        }
        pending = { resolve, reject };
        channel.post({ rate, seconds, prefix, url });
      }),
    close: () => channel.end(),
  };
}

export interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly wireP99: number;
}

export function describeLatency(result: Pick<PhaseResult, 'latencies' | 'wire'>): LatencySummary {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const wire = [...result.wire].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN, wireP99: quantile(wire, 0.99) };
}
