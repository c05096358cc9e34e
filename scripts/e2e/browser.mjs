// The window for code-server's workbench: Debian's chromium driven by playwright-core.
// playwright's own browser download cannot work offline, so we point it at /usr/bin/chromium.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM, loadPlaywright } from './paths.mjs';
import { budget } from './waits.mjs';

// Without the networking flags chromium keeps dialling Google services that this
// machine's closed network refuses; --no-sandbox because we run as root.
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage', '--disable-breakpad',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Launches chromium with a fresh profile. launchPersistentContext, because
 * playwright's launch() refuses a --user-data-dir argument.
 * @returns {Promise<{context, page, profileDir: string, close: () => Promise<void>}>}
 */
export async function launchBrowser({ profileDir, viewport = { width: 1400, height: 900 }, headless = true } = {}) {
  const ownProfile = !profileDir;
  const dir = profileDir || fs.mkdtempSync(path.join(os.tmpdir(), 'ase-chromium-'));
  fs.mkdirSync(dir, { recursive: true });
  const { chromium } = loadPlaywright();
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless,
    viewport,
    args: CHROMIUM_ARGS,
    // Chromium writes crash reports under ~/.config/chromium even with its own profile.
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'xdg-config'), XDG_CACHE_HOME: path.join(dir, 'xdg-cache') },
  });
  const page = context.pages()[0] || (await context.newPage());
  let closing = null;
  const close = () => {
    closing ??= (async () => {
      // A wedged renderer must not hang cleanup forever.
      await Promise.race([context.close().catch(() => {}), sleep(5000)]);
      if (ownProfile) fs.rmSync(dir, { recursive: true, force: true });
    })();
    return closing;
  };
  return { context, page, profileDir: dir, close };
}

/**
 * Opens the workbench and waits until VS Code reports it restored (views, editors and
 * the extension host started). window.driver exists thanks to enable-smoke-test-driver.
 * @returns {Promise<number>} milliseconds it took
 */
export async function openWorkbench(page, url, { timeoutMs: base = 60_000 } = {}) {
  const timeoutMs = budget(base);
  const t0 = Date.now();
  await page.goto(url, { timeout: timeoutMs });
  await page.waitForFunction(() => !!(window.driver && window.driver.whenWorkbenchRestored), null, { timeout: timeoutMs });
  await page.evaluate(() => window.driver.whenWorkbenchRestored());
  return Date.now() - t0;
}

/** Texts of the error modal and error toasts the workbench currently shows. */
export async function errorNotifications(page) {
  const texts = await page
    .locator('.monaco-dialog-box:has(.codicon-dialog-error), .notifications-toasts .notification-toast:has(.codicon-error)')
    .allInnerTexts();
  return texts.map((t) => t.replace(/\s+/g, ' ').trim());
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs a command through the palette the way a person does: F1, type its title, click
 * the row. The row only exists once the extension has activated and registered its
 * contributions, so the first `appearMs` are retried. A command that throws shows the
 * modal "Command '...' resulted in an error": that becomes a thrown Error here.
 * @param {string} title  as shown in the palette, including its category ("Cat: Title")
 */
/** Closes any modal dialog over the workbench (Escape, as a person would), saying which. */
export async function closeDialogs(page, { ms = 10_000 } = {}) {
  const dialog = page.locator('.monaco-dialog-box');
  const end = Date.now() + budget(ms);
  while (await dialog.count()) {
    const text = (await dialog.first().innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
    process.stderr.write(`[e2e] closing a dialog left open: ${text.slice(0, 200)}\n`);
    await page.keyboard.press('Escape');
    await sleep(300);
    if (Date.now() > end) throw new Error(`a dialog stays open over the window: ${text.slice(0, 200)}`);
  }
}

export async function runCommand(page, title, { appearMs: baseAppear = 20_000, settleMs = 1_500 } = {}) {
  const appearMs = budget(baseAppear);
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-list .monaco-list-row').filter({
    has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }),
  }).first();
  const end = Date.now() + appearMs;
  for (;;) {
    // A modal dialog left by an earlier step makes the whole window inert (the palette opens
    // but takes no typing): name it in the log, and close it before asking for the palette.
    await closeDialogs(page);
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ timeout: budget(5_000) });
    } catch (e) {
      // F1 pressed while a webview was still taking the keyboard (it loads, and keeps the
      // key) opens nothing: press it again until the budget runs out.
      if (Date.now() > end) throw e;
      await sleep(700);
      continue;
    }
    try {
      await input.fill(`>${title}`, { timeout: budget(5_000) });
    } catch (e) {
      if (Date.now() > end) throw e;
      await page.keyboard.press('Escape');
      await sleep(700);
      continue;
    }
    try {
      await row.waitFor({ timeout: budget(2_000) });
      break;
    } catch {
      await page.keyboard.press('Escape');
      if (Date.now() > end) throw new Error(`command "${title}" never appeared in the command palette (${appearMs / 1000}s)`);
      await sleep(700);
    }
  }
  await row.click();
  // The error modal comes back asynchronously from the extension host.
  const settleEnd = Date.now() + settleMs;
  do {
    const modal = page.locator('.monaco-dialog-box', { hasText: /resulted in an error/ });
    if (await modal.count()) {
      // Title line and detail (the thrown message), without the button labels.
      const parts = await modal.first().locator('.dialog-message-text, .dialog-message-detail').allInnerTexts();
      throw new Error(`command "${title}" failed: ${parts.map((t) => t.trim()).join(': ')}`);
    }
    await sleep(250);
  } while (Date.now() < settleEnd);
}

/**
 * The content frame of a webview: an outer iframe.webview.ready (VS Code's host page)
 * holding iframe#active-frame (the extension's HTML). Returns the newest one, or the
 * newest whose body contains `text`. The first webview takes a few seconds (its
 * service worker registers first).
 * @returns {Promise<import('playwright-core').FrameLocator>}
 */
export async function webviewFrame(page, { text, timeoutMs: base = 20_000 } = {}) {
  const timeoutMs = budget(base);
  const end = Date.now() + timeoutMs;
  let lastBody = null;
  while (Date.now() < end) {
    const outers = page.locator('iframe.webview.ready');
    for (let i = (await outers.count()) - 1; i >= 0; i--) {
      const inner = outers.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
      try {
        const body = await inner.locator('body').innerText({ timeout: 500 });
        lastBody = body;
        if (text === undefined || body.includes(text)) return inner;
      } catch { /* frame still loading or being replaced */ }
    }
    await sleep(200);
  }
  const seen = lastBody === null ? 'no webview appeared' : `last webview text: ${JSON.stringify(lastBody.slice(0, 200))}`;
  throw new Error(`no webview ${text === undefined ? '' : `showing ${JSON.stringify(text)} `}within ${timeoutMs / 1000}s (${seen})`);
}

/** Full-window screenshot; creates the folder. Returns the absolute path. */
export async function screenshot(page, file) {
  const out = path.resolve(file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  return out;
}

/**
 * What the window shows, for a failure report: the workbench's visible text and each
 * webview's, trimmed. Never throws (the page may be the thing that broke).
 */
export async function visibleText(page, { maxChars = 1_500 } = {}) {
  const trim = (t) => {
    const s = String(t).replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n').trim();
    return s.length > maxChars ? `${s.slice(0, maxChars)} [... ${s.length - maxChars} more chars]` : s;
  };
  const parts = [];
  try {
    parts.push(`workbench: ${trim(await page.locator('body').innerText({ timeout: 2_000 }))}`);
    const outers = page.locator('iframe.webview.ready');
    const n = await outers.count();
    for (let i = 0; i < n; i++) {
      const inner = outers.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
      const body = await inner.locator('body').innerText({ timeout: 1_000 }).catch(() => null);
      if (body !== null) parts.push(`webview ${i + 1}: ${trim(body)}`);
    }
  } catch (e) {
    parts.push(`(could not read the page: ${e.message})`);
  }
  return parts.join('\n');
}

/** The extension's own log files (its "Agent Sessions" output channel) anywhere under `dir`. */
function extensionLogs(dir) {
  const found = [];
  const walk = (d, depth) => {
    let names = [];
    try {
      names = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const n of names) {
      const p = path.join(d, n.name);
      if (n.isDirectory() && depth < 8) walk(p, depth + 1);
      else if (n.isFile() && /Agent Sessions.*\.log$/.test(n.name)) found.push(p);
    }
  };
  walk(dir, 0);
  return found;
}

/**
 * Screenshot + visible text of the page after a failed check, and the last lines of the
 * extension's log when `logRoot` (the run's folder) is given: what it listed, skipped or
 * could not read says why a row is missing. Returns the lines to print.
 */
export async function failureReport(page, file, logRoot) {
  const lines = [];
  try {
    lines.push(`screenshot: ${await screenshot(page, file)}`);
  } catch (e) {
    lines.push(`screenshot failed: ${e.message}`);
  }
  lines.push(`the page showed:\n${await visibleText(page)}`);
  for (const log of logRoot ? extensionLogs(logRoot) : []) {
    const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-40).join('\n');
    lines.push(`the extension's log (${log}), last lines:\n${tail}`);
  }
  return lines;
}
