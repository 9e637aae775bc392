// The status every provider keeps and the listeners it tells about changes. A listener that throws
// is logged and skipped: one broken subscriber must not stop the others nor the provider.
import type { Logger } from '../../logging/logger';
import type { TunnelKind, TunnelStatus } from './tunnel';

export class TunnelState {
  private current: TunnelStatus;
  private readonly listeners = new Set<(status: TunnelStatus) => void>();

  constructor(
    kind: TunnelKind,
    private readonly logger: Logger,
  ) {
    this.current = { kind, up: false, publicUrl: null, lastError: null, restarts: 0 };
  }

  snapshot(): TunnelStatus {
    return { ...this.current };
  }

  /** Applies a change and tells the listeners, only when something they can see did change. */
  update(change: Partial<Omit<TunnelStatus, 'kind'>>): void {
    const next = { ...this.current, ...change };
    const same =
      next.up === this.current.up &&
      next.publicUrl === this.current.publicUrl &&
      next.lastError === this.current.lastError &&
      next.restarts === this.current.restarts;
    this.current = next;
    if (same) return;
    const snapshot = this.snapshot();
    for (const listener of [...this.listeners]) {
      try {
        listener(snapshot);
      } catch (error) {
        this.logger.warn('tunnel status listener failed', { kind: snapshot.kind, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  subscribe(listener: (status: TunnelStatus) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** The local receiver's port as given to start(): a TCP port, so nothing else can be forwarded. */
export function checkLocalPort(port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new RangeError(`local port must be 1–65535, got ${port}`);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
