// Runs every test layer in order and prints a per-layer summary. Any failing or
// missing layer fails the run: a layer that cannot run is a failure, not a skip.
import { spawnSync } from "node:child_process";

const layers = [
  { name: "typecheck", cmd: ["npx", "tsc", "--noEmit", "-p", "."] },
  { name: "core (mocha)", cmd: ["npm", "run", "--silent", "test:core"] },
];

const results = [];
for (const layer of layers) {
  console.log(`\n=== ${layer.name} ===`);
  const r = spawnSync(layer.cmd[0], layer.cmd.slice(1), { stdio: "inherit", env: process.env });
  results.push({ name: layer.name, ok: r.status === 0, code: r.status });
}
console.log("\n=== summary ===");
for (const r of results) console.log(`${r.ok ? "PASS" : "FAIL"}  ${r.name}${r.ok ? "" : ` (exit ${r.code})`}`);
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
