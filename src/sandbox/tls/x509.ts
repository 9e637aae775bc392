// @peculiar/x509, loaded only once the Reflect metadata API its tsyringe needs is in place. A static
// import cannot promise that: in an ES module every import is evaluated before the importing code runs,
// and the app's bundle (electron-vite) may put the library's import above the polyfill's.
import type * as X509 from '@peculiar/x509';

let loading: Promise<typeof X509> | undefined;

export function loadX509(): Promise<typeof X509> {
  loading ??= import('reflect-metadata').then(() => import('@peculiar/x509'));
  return loading;
}
