import Mocha from "mocha";

/**
 * Entry point the extension host requires (the @vscode/test-electron contract): run()
 * resolves when every test passed. Suites are bundled in and registered after mocha's
 * globals exist.
 */
export function run(): Promise<void> {
  // ASE_E2E_WAIT_SCALE (inherited from the runner's environment) stretches every wait on a busy machine.
  const scale = Number(process.env.ASE_E2E_WAIT_SCALE) > 0 ? Number(process.env.ASE_E2E_WAIT_SCALE) : 1;
  // ASE_EXT_GREP (same way) runs only the tests whose full title matches it, while working on one.
  const grep = process.env.ASE_EXT_GREP;
  const mocha = new Mocha({ ui: "bdd", timeout: Math.round(60_000 * scale), color: false, reporter: "spec", ...(grep ? { grep } : {}) });
  mocha.suite.emit("pre-require", globalThis, "extension-tests", mocha);
  require("./extension.test");
  require("./formats.test");
  require("./claude-code.test");
  require("./cost.test");
  require("./search.test");
  require("./names.test");
  require("./subagents.test");
  require("./mcp.test");
  require("./gemini.test");
  require("./agent-history.test");
  require("./export.test");
  require("./codex.test");
  require("./opencode.test");
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} extension test(s) failed`)) : resolve()));
  });
}
