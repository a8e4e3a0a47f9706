// Debian's Chromium driven by playwright-core, for every browser test: one place for its path,
// its flags (no network of its own: the machine's closed network refuses Google's hosts) and
// the skip when it is missing (which fails the run under CI, test/support/environment.ts).
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { needs } from './environment.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_SKIP = needs(`Chromium (${CHROMIUM})`, fs.existsSync(CHROMIUM), 'apt-get install -y chromium');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/**
 * A page of a new context that reaches 127.0.0.1 only (every other request is aborted) and
 * collects the console's Content-Security-Policy complaints into `cspViolations`.
 */
export async function localPage(context: BrowserContext, cspViolations: string[]): Promise<Page> {
  context.setDefaultTimeout(15_000);
  await context.route('**/*', (route) =>
    new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (/Content.Security.Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  return page;
}
