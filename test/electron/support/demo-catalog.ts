// The desktop app's built-in demo merchant runs inside its main process, whose control API no test can
// reach. Its catalog is the seeded one (same seed, same size: src/sandbox/demo-merchant.ts), so a twin
// started here for a moment lists the very products the app's demo sells, as the web host's e2e reads
// them from its own demo.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoMerchant } from '../../../src/sandbox/demo-merchant';
import { sandboxControl, type ControlProduct } from '../../e2e/support/sandbox-control';

export async function demoCatalog(): Promise<ControlProduct[]> {
  const caDir = mkdtempSync(join(tmpdir(), 'procure-electron-demo-twin-'));
  const twin = await startDemoMerchant(() => undefined, { caDir });
  try {
    return await sandboxControl(twin.controlUrl, twin.controlToken).products(500);
  } finally {
    await twin.stop();
    rmSync(caDir, { recursive: true, force: true });
  }
}
