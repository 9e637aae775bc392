// Preloaded (--import) into the child that fake-utility-process.ts forks: gives it what Electron gives a
// utility process, `process.parentPort` (on('message', e => e.data), postMessage), carried over Node's IPC
// channel. Node's own `process.send` is taken away, as a utility process has none, so the entry is proved
// to speak through parentPort.
import { EventEmitter } from 'node:events';

const nodeSend = process.send?.bind(process);
if (nodeSend === undefined) throw new Error('the utility-process shim needs an IPC channel (child_process.fork)');
const send: (message: unknown) => void = (message) => {
  nodeSend(message);
};

class FakeParentPort extends EventEmitter {
  postMessage(message: unknown): void {
    send(message);
  }
}

const port = new FakeParentPort();
process.on('message', (data: unknown) => port.emit('message', { data, ports: [] }));
Object.defineProperty(process, 'parentPort', { value: port, enumerable: false });
delete process.send;
