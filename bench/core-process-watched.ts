// The core process's entry as the app starts it (src/core/process/core-process-main.ts), with its own
// event loop watched for the host-responsiveness bench: webhook acknowledgements are answered on this
// loop, so its lateness is what they wait for. The bench asks over the same IPC channel with messages
// outside the core protocol ({ benchLoop: 'start' | 'read' }); the core runtime ignores them (it logs
// one line each) and the bench's launcher takes the answer before the supervisor sees it.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
const late = (ns: number): number => Math.max(0, ns / 1e6 - RESOLUTION_MS);

process.on('message', (message: unknown) => {
  if (typeof message !== 'object' || message === null || !('benchLoop' in message)) return;
  if (message.benchLoop === 'start') {
    histogram.reset();
    histogram.enable();
  } else if (message.benchLoop === 'read') {
    histogram.disable();
    process.send?.({ benchLoop: { p50: late(histogram.percentile(50)), p99: late(histogram.percentile(99)), max: late(histogram.max) } });
  }
});

await import('../src/core/process/core-process-main');
