// @peculiar/x509 registers its algorithms through tsyringe, which refuses to load without a Reflect
// metadata API (the `reflect-metadata` package is the usual polyfill). tsyringe only reads and writes
// metadata on its own classes, so these three functions over a WeakMap are all it needs; an existing
// implementation is left alone. Only x509.ts calls this, just before it loads the library.
type MetadataKey = unknown;
const store = new WeakMap<object, Map<MetadataKey, unknown>>();

function getOwnMetadata(key: MetadataKey, target: object): unknown {
  return store.get(target)?.get(key);
}

function getMetadata(key: MetadataKey, target: object): unknown {
  for (let at: object | null = target; at !== null; at = Object.getPrototypeOf(at) as object | null) {
    const own = store.get(at);
    if (own?.has(key) === true) return own.get(key);
  }
  return undefined;
}

function defineMetadata(key: MetadataKey, value: unknown, target: object): void {
  const own = store.get(target) ?? new Map<MetadataKey, unknown>();
  own.set(key, value);
  store.set(target, own);
}

export function installReflectMetadata(): void {
  if (!('getMetadata' in Reflect)) Object.assign(Reflect, { getMetadata, getOwnMetadata, defineMetadata });
}
