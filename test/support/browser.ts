// Debian's Chromium driven by playwright-core, for every browser test: one place for its path,
// its flags (no network of its own: the machine's closed network refuses Google's hosts) and
// the skip when it is missing (which fails the run under CI, test/support/environment.ts).
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { needs } from './environment.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_SKIP = needs(`Chromium (${CHROMIUM})`, fs.existsSync(CHROMIUM), 'apt-get install -y chromium');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}
