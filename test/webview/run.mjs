// Webview tests: the built bundle in headless Debian Chromium (playwright-core) with a
// stub VS Code API and a fake host. Run: node test/webview/run.mjs
// (ASE_WEBVIEW_GREP=text runs only the tests whose name holds it.)
// Each file registers its tests with one line here: a module exporting a function that
// takes the runner's `test` and a getter of the shared browser.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { FAILURES, ROOT, writePage } from "./harness.mjs";
import { browser, run, test } from "./runner.mjs";
import { chartTests } from "./chart.test.mjs";
import { chartZoomTests } from "./chart-zoom.test.mjs";
import { contextMenuTests } from "./context-menu.test.mjs";
import { detailsTests } from "./details.test.mjs";
import { exportPageTests } from "./export-page.test.mjs";
import { fileListTests } from "./file-list.test.mjs";
import { headerCostTests } from "./header-cost.test.mjs";
import { keyboardTests } from "./keyboard.test.mjs";
import { largeSessionTests } from "./large-sessions.test.mjs";
import { loadingTests } from "./loading.test.mjs";
import { realSessionTests } from "./real-sessions.test.mjs";
import { searchTests } from "./search.test.mjs";
import { securityTests } from "./security.test.mjs";
import { subagentTests } from "./subagents.test.mjs";
import { themesLayoutTests } from "./themes-layout.test.mjs";
import { tokenBarTests } from "./token-bars.test.mjs";
import { treeTests } from "./tree.test.mjs";

loadingTests(test, () => browser);
treeTests(test, () => browser);
subagentTests(test, () => browser);
keyboardTests(test, () => browser);
detailsTests(test, () => browser);
fileListTests(test, () => browser);
tokenBarTests(test, () => browser);
chartTests(test, () => browser);
chartZoomTests(test, () => browser);
headerCostTests(test, () => browser);
contextMenuTests(test, () => browser);
searchTests(test, () => browser);
largeSessionTests(test, () => browser);
securityTests(test, () => browser);
realSessionTests(test, () => browser);
themesLayoutTests(test, () => browser);
exportPageTests(test, () => browser);

await run({
  before: async () => {
    console.log("building (node esbuild.mjs)...");
    execFileSync(process.execPath, ["esbuild.mjs", "--webview-tests"], { cwd: ROOT, stdio: "inherit" });
    await writePage();
    rmSync(FAILURES, { recursive: true, force: true });
  },
});
