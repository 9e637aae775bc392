// `npm run screens`: photographs the main screens for docs/screens (README's "Screens"; README.zh-CN.md shows some), walking the
// tour of test/e2e/support/screen-tour.ts on the demo merchant in zh-CN light and dark and English
// light, at 1280×800. Not part of the test suites (its own config, vitest.screens.config.ts): it
// rewrites committed images. Which stops are photographed, and in which looks, is the stop's
// `photo`; a new screen (a connection state, say) is one more stop there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { launchChromium, openApp } from '../e2e/support/browser';
import { sandboxControl } from '../e2e/support/sandbox-control';
import { walkTour, type TourStop } from '../e2e/support/screen-tour';
import { startWebHost } from '../e2e/support/web-host-process';

const OUT_DIR = join(process.cwd(), 'docs', 'screens');

interface Look {
  readonly suffix: string;
  readonly locale: 'zh-CN' | 'en-US';
  readonly colorScheme: 'light' | 'dark';
  readonly takes: (stop: TourStop) => boolean;
}

const LOOKS: readonly Look[] = [
  { suffix: 'zh-light', locale: 'zh-CN', colorScheme: 'light', takes: (stop) => stop.photo !== undefined },
  { suffix: 'zh-dark', locale: 'zh-CN', colorScheme: 'dark', takes: (stop) => stop.photo === 'all' },
  { suffix: 'en-light', locale: 'en-US', colorScheme: 'light', takes: (stop) => stop.photo === 'all' },
];

describe('docs/screens', () => {
  for (const look of LOOKS) {
    it(`photographs the tour in ${look.suffix}`, async () => {
      mkdirSync(OUT_DIR, { recursive: true });
      const host = await startWebHost();
      const browser = await launchChromium();
      try {
        const control = sandboxControl(host.controlUrl, host.controlToken);
        const { page } = await openApp(browser, host.url, look.locale, { colorScheme: look.colorScheme, viewport: { width: 1280, height: 800 } });
        const tour = { page, control, products: await control.products(500), state: { userId: '', clientOrderRef: '' } };
        await walkTour(tour, async (stop) => {
          if (look.takes(stop)) await page.screenshot({ path: join(OUT_DIR, `${stop.name}-${look.suffix}.png`) });
        });
      } finally {
        await browser.close();
        await host.stop();
      }
    }, 600_000);
  }
});
