#!/usr/bin/env node
// Re-records every OpenCode scenario with the real build into a scratch folder and compares
// it with the committed fixtures (test/fixtures/opencode): the goldens message by message and
// the manifest's facts, with ids (ses_/msg_/prt_) and times normalized. Lists each change and
// exits 1 when there is any.
//   node scripts/opencode/check-goldens.mjs [--only name,name] [--keep]   (--keep: the scratch homes)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareRecordings } from "./compare.mjs";
import { FIXTURES, SCRATCH, recordAll } from "./record.mjs";

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
  const fresh = mkdtempSync(join(tmpdir(), "ase-oc-check-"));
  try {
    await recordAll(fresh, only);
    const changes = compareRecordings(FIXTURES, fresh, only);
    if (changes.length) {
      console.error(`a fresh recording differs from the committed fixtures:\n  ${changes.join("\n  ")}`);
      process.exitCode = 1;
    } else console.log("a fresh recording matches every committed golden and fact (ids and times normalized)");
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    if (!args.includes("--keep")) rmSync(SCRATCH, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
