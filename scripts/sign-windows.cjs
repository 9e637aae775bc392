// electron-builder's Windows signing hook (win.signtoolOptions.sign): signtool with a key that never
// leaves its hardware (an OV/EV token, a cloud HSM's CSP/KSP), so no .pfx is needed. Identity from the
// release machine's environment only; without one it throws, so nothing ships unsigned. Azure Trusted
// Signing does not come here (electron-builder's win.azureSignOptions). docs/developers.md: Releases.
'use strict';
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');

const DEFAULT_TIMESTAMP_URL = 'http://timestamp.digicert.com';

/**
 * signtool's arguments for one file, or an Error saying what is missing. No secret is ever among them:
 * a token's PIN or a key service's credentials stay with its CSP/KSP (its own login or environment).
 * @param {string} file
 * @param {Record<string, string | undefined>} env
 * @param {{ file?: string; password?: string | null; thumbprint?: string; store?: string; isLocalMachineStore?: boolean } | null} cscInfo
 * @param {string | null | undefined} description
 * @returns {string[] | Error}
 */
function signtoolArguments(file, env, cscInfo, description) {
  const identity = identityArguments(env, cscInfo);
  if (identity instanceof Error) return identity;
  const timestamp = nonEmpty(env.WIN_SIGN_TIMESTAMP_URL) ?? DEFAULT_TIMESTAMP_URL;
  const named = description ? ['/d', description] : [];
  return ['sign', ...identity, '/fd', 'sha256', '/tr', timestamp, '/td', 'sha256', ...named, file];
}

/** @returns {string[] | Error} */
function identityArguments(env, cscInfo) {
  const thumbprint = nonEmpty(env.WIN_SIGN_CERT_SHA1) ?? cscInfo?.thumbprint;
  const keyContainer = nonEmpty(env.WIN_SIGN_KEY_CONTAINER);
  if (keyContainer !== undefined) {
    // The public certificate from a file, the private key in a CSP/KSP container (a cloud HSM's or a
    // smart card's provider): signtool /f cert /csp provider /kc container.
    const certificate = nonEmpty(env.WIN_SIGN_CERT_FILE);
    const provider = nonEmpty(env.WIN_SIGN_CSP);
    if (certificate === undefined || provider === undefined) {
      return new Error('WIN_SIGN_KEY_CONTAINER needs WIN_SIGN_CERT_FILE (the public certificate) and WIN_SIGN_CSP (the key provider)');
    }
    return ['/f', certificate, '/csp', provider, '/kc', keyContainer];
  }
  if (thumbprint !== undefined) {
    if (!/^[0-9a-f]{40}$/i.test(thumbprint)) return new Error('WIN_SIGN_CERT_SHA1 must be the certificate\u2019s SHA-1 thumbprint (40 hex digits)');
    // The certificate in the Windows store, its key on the token or KSP the store links it to.
    const store = nonEmpty(env.WIN_SIGN_CERT_STORE) ?? cscInfo?.store ?? 'My';
    const machine = env.WIN_SIGN_MACHINE_STORE === 'true' || cscInfo?.isLocalMachineStore === true ? ['/sm'] : [];
    return ['/sha1', thumbprint.toUpperCase(), '/s', store, ...machine];
  }
  if (cscInfo?.file) {
    // A .pfx from WIN_CSC_LINK (a test or internal certificate): signtool takes its password only here.
    const password = cscInfo.password ? ['/p', cscInfo.password] : [];
    return ['/f', cscInfo.file, ...password];
  }
  return new Error('no Windows signing identity: set WIN_SIGN_CERT_SHA1 (a certificate in the Windows store, its key on a token or KSP), or WIN_SIGN_CERT_FILE + WIN_SIGN_CSP + WIN_SIGN_KEY_CONTAINER, or use Azure Trusted Signing');
}

/** @param {string | undefined} value */
function nonEmpty(value) {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The hook electron-builder calls once per file (one hash: sha256). */
async function sign(configuration, packager) {
  const args = signtoolArguments(configuration.path, process.env, configuration.cscInfo ?? null, configuration.name);
  if (args instanceof Error) throw args;
  const { getSignToolPath } = require('app-builder-lib/out/toolsets/windows');
  // SIGNTOOL_PATH, or the signtool electron-builder ships for this architecture.
  const tool = await getSignToolPath(packager?.config?.toolsets?.winCodeSign, process.platform === 'win32');
  await promisify(execFile)(tool.path, args, { env: { ...process.env, ...(tool.env ?? {}) }, timeout: 10 * 60_000, windowsHide: true });
}

// electron-builder takes the export named after the option (`sign`), else the default one.
exports.sign = sign;
exports.default = sign;
exports.signtoolArguments = signtoolArguments;
