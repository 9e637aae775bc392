// Types of scripts/after-pack.cjs (CommonJS, loaded by electron-builder) for its tests.
export declare function nativeBinaryProblems(unpacked: string, platform: string, arch: string): string[];

export declare function afterPack(context: { readonly appOutDir: string; readonly electronPlatformName: string; readonly arch: number; readonly packager: { readonly appInfo: { readonly productFilename: string } } }): Promise<void>;
