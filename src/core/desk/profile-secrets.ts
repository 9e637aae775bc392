// One profile's view of the secret store: every name gets the profile's prefix (profile.p2.…), so a
// profile's API key and vault data key can never be read, replaced or deleted by another profile. The
// first profile's prefix is empty: its secrets keep the names earlier versions gave them, so nothing
// is moved in the OS keyring by the upgrade (a move that a crash could leave half done).
// A few secrets belong to the desk, not to a merchant (the ngrok authtoken: one tunnel account for
// the one webhook receiver); they pass through unprefixed.
import type { SecretStore } from '../secrets/secret-store';
import { NGROK_AUTHTOKEN_SECRET } from '../webhooks/tunnels/ngrok-tunnel';

const DESK_WIDE_SECRETS: ReadonlySet<string> = new Set([NGROK_AUTHTOKEN_SECRET]);

export function profileSecretName(prefix: string, name: string): string {
  return DESK_WIDE_SECRETS.has(name) ? name : `${prefix}${name}`;
}

export function profileSecrets(store: SecretStore, prefix: string): SecretStore {
  if (prefix === '') return store;
  return {
    // Read each time: the desktop app's store can move from memory to a passphrase file.
    get kind() {
      return store.kind;
    },
    get: (name) => store.get(profileSecretName(prefix, name)),
    set: (name, value) => store.set(profileSecretName(prefix, name), value),
    delete: (name) => store.delete(profileSecretName(prefix, name)),
  };
}
