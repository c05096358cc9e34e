// Installs a pinned coding agent from npm into ~/.cache/ase-agents/<name>-<version> (or
// $ASE_AGENTS_CACHE/<name>-<version>), never as a dependency of this package: the recorders
// under scripts/<agent>/ run the real build from there against a fake model server.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The cache folder one pinned agent is installed into. */
export function agentCache(name, version) {
  const base = process.env.ASE_AGENTS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "ase-agents");
  return join(base, `${name}-${version}`);
}

/**
 * Installs `pkg@version` once and returns the path of its `bin` executable.
 * `ignoreScripts` skips install scripts (a package whose launcher works without them).
 */
export function ensureAgent({ name, pkg, version, bin, ignoreScripts = false }) {
  const cache = agentCache(name, version);
  const exe = join(cache, "node_modules", ".bin", bin);
  if (existsSync(exe)) return exe;
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, "package.json"), JSON.stringify({ name: `ase-${name}-cache`, private: true }));
  console.log(`installing ${pkg}@${version} into ${cache}`);
  const args = ["install", "--no-audit", "--no-fund", ...(ignoreScripts ? ["--ignore-scripts"] : []), `${pkg}@${version}`];
  execFileSync("npm", args, { cwd: cache, stdio: "inherit" });
  if (!existsSync(exe)) throw new Error(`npm installed ${pkg}@${version} into ${cache} but ${exe} is missing`);
  return exe;
}
