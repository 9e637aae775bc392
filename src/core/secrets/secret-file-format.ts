// The on-disk form of the passphrase secret store, version 1:
//
//   { "format": "procure-desk-secrets", "version": 1,
//     "kdf": { "name": "scrypt", "N": 131072, "r": 8, "p": 1, "salt": "<base64, 32 bytes>" },
//     "check": "<base64 nonce|tag|ciphertext>",
//     "secrets": { "<name>": "<base64 nonce|tag|ciphertext>" } }
//
// `check` is a known text sealed under the derived key: it tells a wrong passphrase apart from a
// damaged file before any secret is touched. Each secret's associated data is its name, so entries
// cannot be swapped between names. Cost bounds guard against an edited file that would make
// opening hang or exhaust memory, or silently weaken the key derivation.
import { z } from 'zod';
import { isSecretName } from './secret-store';

export const FILE_FORMAT = 'procure-desk-secrets';
export const FILE_VERSION = 1;
export const MIN_SCRYPT_N = 2 ** 15;
export const MAX_SCRYPT_N = 2 ** 20;
export const SALT_BYTES = 32;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

const powerOfTwo = z
  .int()
  .min(MIN_SCRYPT_N)
  .max(MAX_SCRYPT_N)
  .refine((n) => (n & (n - 1)) === 0, { message: 'N must be a power of two' });

export const secretFileSchema = z.object({
  format: z.literal(FILE_FORMAT),
  version: z.literal(FILE_VERSION),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: powerOfTwo,
    r: z.int().min(8).max(32),
    p: z.int().min(1).max(4),
    salt: base64,
  }),
  check: base64,
  // Names are checked here too, so an edited file cannot smuggle in `__proto__` and the like.
  secrets: z.record(z.string().refine(isSecretName, { message: 'invalid secret name' }), base64),
});
export type SecretFile = z.infer<typeof secretFileSchema>;

export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
}
