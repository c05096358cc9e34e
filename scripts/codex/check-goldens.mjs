// Compares every golden under test/fixtures/codex/goldens with what `ase context FILE
// --format native` prints for its rollout (dist/cli.js must be built).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";

export function checkGoldens(repo, fixtures) {
  const cli = join(repo, "dist/cli.js");
  if (!existsSync(cli)) return [`${cli} is not built: run node esbuild.mjs first`];
  const failures = [];
  const all = ["goldens", "handmade/goldens"].flatMap((d) => readdirSync(join(fixtures, d)).filter((n) => n.endsWith(".json")).map((n) => join(d, n)));
  for (const name of all) {
    const g = JSON.parse(readFileSync(join(fixtures, name), "utf8"));
    const r = spawnSync(process.execPath, [cli, "context", join(fixtures, g.rollout), "--format", "native"], { encoding: "utf8", maxBuffer: 1 << 28 });
    if (r.status !== 0) {
      failures.push(`${name}: ase context exited ${r.status}: ${r.stderr.trim()}`);
      continue;
    }
    const got = JSON.parse(r.stdout).messages;
    // Key order matters too: compare the serialized forms.
    if (!isDeepStrictEqual(got, g.input) || JSON.stringify(got) !== JSON.stringify(g.input)) failures.push(`${name}: native context differs from what Codex sent (${got.length} vs ${g.input.length} items)`);
    else console.log(`ok ${name}: ${got.length} items`);
  }
  return failures;
}
