// Headless Chromium for the browser smoke, driven by playwright-core: the system's Chromium
// (Debian's `chromium` package), never a browser downloaded at run time.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

const CANDIDATES = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];

/** The Chromium executable: `$CHROMIUM_PATH` when set, else the first of the usual names on PATH. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const given = env["CHROMIUM_PATH"];
  if (given !== undefined && given !== "") {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH=${given}: no such file`);
    return given;
  }
  for (const name of CANDIDATES) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
    } catch {
      // not on PATH: try the next name
    }
  }
  throw new Error(`no Chromium on PATH (tried ${CANDIDATES.join(", ")}); install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH`);
}

/**
 * Launches headless Chromium (no sandbox: CI runs as root, where Chromium's sandbox refuses to
 * start). A launch has taken over 20 s in a fresh-clone CI run; the bound is for a hung browser.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ["--no-sandbox"], timeout: 60_000 });
}

/** A fresh page whose uncaught errors and console errors are collected into `errors`. */
export async function errorCollectingPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console error: ${m.text()}`);
  });
  return page;
}
