// What src/preload/index.ts exposes. It grows with the typed IPC contract of src/shared.
export {};

declare global {
  interface Window {
    readonly procureDesk: {
      readonly platform: string;
    };
  }
}
