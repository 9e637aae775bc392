// What a build ships of others' code, and the two files that say so: THIRD_PARTY_NOTICES.txt (each
// package with its licence texts) and a CycloneDX 1.5 SBOM (sbom.cdx.json). Built from package-lock.json
// (versions, declared licences, integrity hashes) and the bundles' own package lists.
import { randomUUID } from 'node:crypto';
import type { LicenceText } from './licence-texts';
import type { LockPackage } from './lock-packages';

/** Where a package's code is in the app: installed in node_modules, or bundled into a script. */
export type Place = 'node_modules' | 'main bundle' | 'preload bundle' | 'renderer bundle';

export interface ThirdPartyPackage extends LockPackage {
  readonly places: readonly Place[];
  readonly texts: readonly LicenceText[];
}

export interface App {
  readonly name: string;
  readonly version: string;
}

/** One entry per lock key, its places merged, sorted by name then version then key. */
export function mergePlaces(found: readonly { readonly pkg: LockPackage; readonly place: Place }[], textsOf: (key: string) => readonly LicenceText[]): ThirdPartyPackage[] {
  const byKey = new Map<string, { pkg: LockPackage; places: Set<Place> }>();
  for (const { pkg, place } of found) {
    const known = byKey.get(pkg.key) ?? { pkg, places: new Set<Place>() };
    known.places.add(place);
    byKey.set(pkg.key, known);
  }
  return [...byKey.values()]
    .map(({ pkg, places }) => ({ ...pkg, places: [...places].sort(), texts: textsOf(pkg.key) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version) || a.key.localeCompare(b.key));
}

export function noticesText(app: App, packages: readonly ThirdPartyPackage[]): string {
  const rule = '-'.repeat(78);
  const head = [
    `THIRD-PARTY NOTICES for ${app.name} ${app.version}`,
    '',
    `This build contains the following ${packages.length} open-source packages, installed with the app`,
    '(node_modules) or bundled into its scripts. Electron and Chromium ship their own notices beside',
    'the app (LICENSE.electron.txt, LICENSES.chromium.html).',
    '',
  ];
  const body = packages.flatMap((pkg) => [
    rule,
    `${pkg.name} ${pkg.version}`,
    `Licence: ${pkg.license ?? 'not declared'}`,
    `In: ${pkg.places.join(', ')}`,
    '',
    ...(pkg.texts.length === 0
      ? [`(The package holds no licence file; its package.json declares: ${pkg.license ?? 'nothing'}.)`, '']
      : pkg.texts.flatMap((text) => [`--- ${text.file} ---`, text.text, ''])),
  ]);
  return [...head, ...body].join('\n');
}

/** npm's integrity (sha512-<base64>) as a CycloneDX hash. */
function hashOf(integrity: string | null): { alg: string; content: string }[] {
  const match = /^sha(512|384|256|1)-([A-Za-z0-9+/=]+)$/.exec(integrity ?? '');
  if (match === null) return [];
  const alg = match[1] === '1' ? 'SHA-1' : `SHA-${match[1] ?? ''}`;
  return [{ alg, content: Buffer.from(match[2] ?? '', 'base64').toString('hex') }];
}

export function purlOf(name: string, version: string): string {
  return `pkg:npm/${name.replace(/^@/, '%40')}@${version}`;
}

export function cycloneDx(app: App, packages: readonly ThirdPartyPackage[], now: Date): Record<string, unknown> {
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.5.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: `urn:uuid:${randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: now.toISOString(),
      tools: [{ vendor: app.name, name: 'scripts/licenses.ts', version: app.version }],
      component: { 'bom-ref': `${app.name}@${app.version}`, type: 'application', name: app.name, version: app.version, purl: purlOf(app.name, app.version) },
    },
    components: packages.map((pkg) => ({
      'bom-ref': `${pkg.name}@${pkg.version}#${pkg.key}`,
      type: 'library',
      name: pkg.name,
      version: pkg.version,
      scope: 'required',
      purl: purlOf(pkg.name, pkg.version),
      hashes: hashOf(pkg.integrity),
      licenses: pkg.license === null ? [] : [{ expression: pkg.license }],
      properties: [...pkg.places.map((place) => ({ name: 'procure-desk:shipped-in', value: place })), { name: 'cdx:npm:package:path', value: pkg.key }],
    })),
  };
}
