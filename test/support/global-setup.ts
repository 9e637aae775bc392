// Once before the unit and integration suites: the CLI bundle the CLI tests spawn (cli-bundle.ts).
import { buildCliBundle } from './cli-bundle';

export default async function setup(): Promise<void> {
  await buildCliBundle();
}
