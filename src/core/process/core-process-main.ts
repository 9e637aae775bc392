// The core process's executable entry (Electron main forks it with utilityProcess.fork, the web host with
// child_process.fork). It takes nothing from argv or the environment: everything, secrets included,
// comes over the port from the host that started it.
import { parentPort } from './core-channel';
import { runCoreProcess } from './core-process-runtime';

const port = parentPort();
if (port === null) {
  process.stderr.write('procure-desk core: started without a host port; it is started by the app, not by hand\n');
  process.exit(2);
}
const runtime = runCoreProcess(port);
// The host is gone (its end of the IPC channel closed): nothing can be answered any more.
process.on('disconnect', () => process.exit(0));
// Ctrl+C in a terminal reaches the whole process group: the host decides when core stops (it asks,
// and core closes its database cleanly), so the interrupt is the host's alone.
process.on('SIGINT', () => undefined);
void runtime.stopped.then(() => process.exit(0));
