// The control API's faults that need the OpenAPI's server itself rather than a per-request switch:
// refusing connections (the listener closed, so a client meets ECONNREFUSED: "offline") and serving a
// bad certificate (expired, for another host, from an unknown CA: "certificate"). Ending a fault puts
// the good listener and certificate back on the same port.
import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { CaMaterial, ServerCertificate } from '../tls/certificate-builder';
import { faultCertificate, type TlsFaultMode } from '../tls/tls-faults';

export interface ListenerFaults {
  refuseConnections: boolean;
  tls: TlsFaultMode;
}

export interface ListenerControl {
  state(): ListenerFaults;
  /** Stops (true) or resumes (false) accepting connections; open connections are closed at once. */
  refuseConnections(on: boolean): Promise<void>;
  /** Serves the certificate of this mode from the next connection on (open ones are closed); throws on a plain-HTTP sandbox. */
  serveCertificate(mode: TlsFaultMode): Promise<void>;
}

export interface ListenerControlOptions {
  server: Server;
  port: () => number;
  /** Absent when the sandbox serves plain HTTP (a test of the app's https-only rule). */
  tls: { server: HttpsServer; ca: CaMaterial; good: ServerCertificate; hostnames: string[]; ipAddresses: string[] } | null;
}

export function createListenerControl(options: ListenerControlOptions): ListenerControl {
  const faults: ListenerFaults = { refuseConnections: false, tls: 'valid' };
  // Fault certificates take a key pair each: made once per mode, on first use.
  const made = new Map<TlsFaultMode, ServerCertificate>();
  return {
    state: () => ({ ...faults }),
    async refuseConnections(on) {
      if (on === faults.refuseConnections) return;
      faults.refuseConnections = on;
      const { server } = options;
      if (on) {
        server.close();
        server.closeAllConnections();
        return;
      }
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port(), '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    },
    async serveCertificate(mode) {
      const tls = options.tls;
      if (tls === null) throw new Error('this sandbox serves plain HTTP: it has no certificate to change');
      const certificate = mode === 'valid' ? tls.good : (made.get(mode) ?? (await faultCertificate(mode, tls.ca, tls.hostnames, tls.ipAddresses)));
      made.set(mode, certificate);
      tls.server.setSecureContext({ cert: certificate.certPem, key: certificate.keyPem });
      faults.tls = mode;
      // A kept-alive connection would go on with the old certificate.
      tls.server.closeAllConnections();
    },
  };
}
