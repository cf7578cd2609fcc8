import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const INSTALL_HINT = `These tests drive a real headless Chromium at ${CHROMIUM}: install it (Debian/Ubuntu: apt-get install -y chromium) or set CHROMIUM_PATH.`;

/**
 * Launch the machine's Chromium headless, with nothing that reaches out to the network on its own. Fails with an
 * install hint, never skips, when there is no Chromium.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(INSTALL_HINT);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--disable-gpu',
      '--disable-dev-shm-usage',
    ],
  });
}
