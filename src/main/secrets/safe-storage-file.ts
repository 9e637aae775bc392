// The on-disk form of the safeStorage secret store, version 1 (userData/secrets.safe-storage.json):
//
//   { "format": "procure-desk-safe-storage", "version": 1,
//     "lastBackend": "gnome_libsecret",
//     "weakStorageAccepted": false,
//     "backends": { "<backend>": { "<name>": "<base64 safeStorage blob>" } } }
//
// Blobs are kept per backend: a blob made with one keyring does not decrypt with another, so when
// the backend changes (a new desktop session, a keyring removed) the old section is left intact
// rather than overwritten, and comes back if the old backend does. `lastBackend` is how a change is
// noticed. The file holds only safeStorage ciphertext; it is still written with mode 0600.
import { z } from 'zod';
import { isSecretName } from '../../core';

export const SAFE_STORAGE_FORMAT = 'procure-desk-safe-storage';
export const SAFE_STORAGE_VERSION = 1;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);
// Names are checked so an edited file cannot smuggle in `__proto__` and the like.
const secretName = z.string().refine(isSecretName, { message: 'invalid secret name' });
const backendName = z.string().regex(/^[a-z0-9_]{1,40}$/);

export const safeStorageFileSchema = z.object({
  format: z.literal(SAFE_STORAGE_FORMAT),
  version: z.literal(SAFE_STORAGE_VERSION),
  lastBackend: backendName.nullable(),
  weakStorageAccepted: z.boolean(),
  backends: z.record(backendName, z.record(secretName, base64)),
});
export type SafeStorageFile = z.infer<typeof safeStorageFileSchema>;

export function emptySafeStorageFile(): SafeStorageFile {
  return { format: SAFE_STORAGE_FORMAT, version: SAFE_STORAGE_VERSION, lastBackend: null, weakStorageAccepted: false, backends: {} };
}
