// Three functions electron-builder's PlatformPackager.copyAppFiles calls to pick what it packs (the app's
// files, node_modules): exported by app-builder-lib's code but marked @internal, so left out of its published
// declarations. Declared here with their real signatures for test/shell/target-file-sets.ts.
import type { FileMatcher } from 'app-builder-lib/out/fileMatcher';
import type { PlatformSpecificBuildOptions } from 'app-builder-lib';
import type { Packager } from 'app-builder-lib/out/packager';
import type { PlatformPackager } from 'app-builder-lib/out/platformPackager';
import type { ResolvedFileSet } from 'app-builder-lib/out/util/appFileCopier';

declare module 'app-builder-lib/out/fileMatcher' {
  export function getMainFileMatchers(appDir: string, destination: string, macroExpander: (pattern: string) => string, platformSpecificBuildOptions: PlatformSpecificBuildOptions, platformPackager: PlatformPackager<PlatformSpecificBuildOptions>, outDir: string, isElectronCompile: boolean): FileMatcher[];
  export function getNodeModuleFileMatcher(appDir: string, destination: string, macroExpander: (pattern: string) => string, platformSpecificBuildOptions: PlatformSpecificBuildOptions, packager: Packager): FileMatcher;
}

declare module 'app-builder-lib/out/util/appFileCopier' {
  export function computeNodeModuleFileSets(platformPackager: PlatformPackager<PlatformSpecificBuildOptions>, mainMatcher: FileMatcher): Promise<ResolvedFileSet[]>;
}
