// The two ends of the message port between a host and the core process, whatever carries it: Electron's
// utilityProcess (parentPort / child.postMessage) or Node's child_process.fork IPC channel.

/** The host's handle on a running core process. */
export interface CoreChild {
  /** The operating system's process id (for logs and for tests that kill it), when known. */
  readonly pid: number | undefined;
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone, however it ended. */
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

/** Starts one core process (the supervisor calls it again after an exit). */
export type CoreLauncher = () => CoreChild;

/** Core's end of the port, inside the core process. */
export interface ParentPort {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
}

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

/**
 * The port this process was started with: Electron's `process.parentPort` in a utility process, the
 * IPC channel of child_process.fork otherwise. Null when the process was started without either.
 */
export function parentPort(): ParentPort | null {
  const electronPort = (process as NodeJS.Process & { parentPort?: ElectronParentPort }).parentPort;
  if (electronPort !== undefined) {
    return {
      post: (message) => electronPort.postMessage(message),
      onMessage: (listener) => electronPort.on('message', (event) => listener(event.data)),
    };
  }
  const send = process.send?.bind(process);
  if (send === undefined) return null;
  return {
    post: (message) => {
      send(message);
    },
    onMessage: (listener) => process.on('message', (message: unknown) => listener(message)),
  };
}
