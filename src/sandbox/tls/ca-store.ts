// Keeps the sandbox CA on disk so that a user trusts it once and every later start reuses it.
// Several sandboxes may start at once on the same directory (parallel test workers), so creating
// the CA happens under a directory lock: otherwise two starts could each write their own CA and one
// would serve certificates that its ca-cert.pem file does not match.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkCaMaterial, createCertificateAuthority, type CaMaterial } from './certificate-builder';

export const CA_CERT_FILE = 'ca-cert.pem';
export const CA_KEY_FILE = 'ca-key.pem';
const LOCK_DIR = '.ca-lock';
const LOCK_WAIT_MS = 30_000;
// Creating a CA takes about a second at most (loading @peculiar/x509 included); an older lock was left
// by a process that died holding it.
const STALE_LOCK_MS = 20_000;

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

async function withDirLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(dir, LOCK_DIR);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmdirSync(lock);
      } catch {
        // The holder released it meanwhile; just try again.
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the CA lock ${lock}`, { cause: error });
      await sleep(25);
    }
  }
  try {
    return await fn();
  } finally {
    rmdirSync(lock);
  }
}

/** Writes via a temporary file and rename so that a reader never sees half a PEM. */
function writeAtomic(path: string, content: string, mode: number): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, content, { mode });
  chmodSync(temp, mode);
  renameSync(temp, path);
}

function readCa(dir: string): CaMaterial | undefined {
  const certFile = join(dir, CA_CERT_FILE);
  const keyFile = join(dir, CA_KEY_FILE);
  if (!existsSync(certFile) || !existsSync(keyFile)) return undefined;
  const ca = { certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') };
  try {
    checkCaMaterial(ca);
  } catch (error) {
    // Never overwrite a CA that a user may have trusted; let them decide to delete it.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`unusable sandbox CA in ${dir} (${reason}); delete ${CA_CERT_FILE} and ${CA_KEY_FILE} to create a new one`, { cause: error });
  }
  return ca;
}

/** Returns the CA stored in `dir`, creating and storing one first if there is none. */
export async function loadOrCreateCa(dir: string): Promise<CaMaterial> {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask; the CA key's directory must be private regardless.
    chmodSync(dir, 0o700);
  }
  const existing = readCa(dir);
  if (existing) return existing;
  return withDirLock(dir, async () => {
    const raced = readCa(dir);
    if (raced) return raced;
    const created = await createCertificateAuthority();
    // Key first: a cert file without its key would make readCa treat the directory as empty.
    writeAtomic(join(dir, CA_KEY_FILE), created.keyPem, 0o600);
    writeAtomic(join(dir, CA_CERT_FILE), created.certPem, 0o644);
    return created;
  });
}
