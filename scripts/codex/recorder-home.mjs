// What the Codex recorders share: the pinned codex-cli install in a cache folder (never a
// dependency of this package), a throw-away CODEX_HOME's config.toml pointing at our fake
// Responses server, and the rollouts a run left in that home.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { agentCache, ensureAgent } from "../agents/install.mjs";

export const VERSION = "0.169.0";
export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const cache = agentCache("codex", VERSION);
export const bin = join(cache, "node_modules/.bin/codex");
/** Installs the pinned codex-cli into the cache once (scripts/agents/install.mjs); returns `bin`. */
export const install = () => ensureAgent({ name: "codex", pkg: "@openai/codex", version: VERSION, bin: "codex" });

/** config.toml for a throw-away home: the fake provider on 127.0.0.1, no retries (a broken stream fails the turn). */
export function writeConfig(home, port, model = "gpt-5.5") {
  writeFileSync(
    join(home, "config.toml"),
    [`model = "${model}"`, 'model_provider = "fake"', "[model_providers.fake]", 'name = "fake"', `base_url = "http://127.0.0.1:${port}/v1"`, 'wire_api = "responses"', 'env_key = "FAKE_KEY"', "stream_max_retries = 0", "request_max_retries = 0", ""].join("\n"),
  );
}

/** The plain rollouts under a home's sessions/ folder. */
export function rollouts(home) {
  const found = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^rollout-.*\.jsonl$/.test(e.name)) found.push(p);
    }
  };
  walk(join(home, "sessions"));
  return found;
}
