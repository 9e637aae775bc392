// js-yaml 4 (installed with electron-updater, which reads app-update.yml with it) ships no types; the
// workflow tests only need its loader, which returns plain JSON-like data.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
