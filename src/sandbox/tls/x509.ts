// @peculiar/x509, loaded only once the Reflect metadata API it needs is in place. A static import cannot
// promise that: in an ES module every import is evaluated before the importing code runs, and the app's
// bundle (electron-vite) puts the external import of the library above the inlined polyfill.
import type * as X509 from '@peculiar/x509';
import { installReflectMetadata } from './reflect-metadata';

let loading: Promise<typeof X509> | undefined;

export function loadX509(): Promise<typeof X509> {
  installReflectMetadata();
  loading ??= import('@peculiar/x509');
  return loading;
}
