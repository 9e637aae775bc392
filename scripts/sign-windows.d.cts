// Types of scripts/sign-windows.cjs (CommonJS, loaded by electron-builder) for its tests.
export interface SigningCertificate {
  readonly file?: string;
  readonly password?: string | null;
  readonly thumbprint?: string;
  readonly store?: string;
  readonly isLocalMachineStore?: boolean;
}

export declare function signtoolArguments(file: string, env: Readonly<Record<string, string | undefined>>, cscInfo: SigningCertificate | null, description: string | null | undefined): string[] | Error;

export declare function sign(configuration: { readonly path: string; readonly name?: string | null; readonly cscInfo?: SigningCertificate | null }, packager?: unknown): Promise<void>;
