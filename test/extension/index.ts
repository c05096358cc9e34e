import Mocha from "mocha";

/**
 * Entry point the extension host requires (the @vscode/test-electron contract): run()
 * resolves when every test passed. Suites are bundled in and registered after mocha's
 * globals exist.
 */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 60_000, color: false, reporter: "spec" });
  mocha.suite.emit("pre-require", globalThis, "extension-tests", mocha);
  require("./extension.test");
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} extension test(s) failed`)) : resolve()));
  });
}
