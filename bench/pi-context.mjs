// The rival in `npm run bench`: what pi itself does to get a session's context, in a
// fresh process: SessionManager.open (read, parse, index every entry), then
// buildSessionContext + convertToLlm for the leaf it continues from, printed as JSON on
// stdout the way `ase context --format pi` prints ours.
//   node bench/pi-context.mjs FILE
// Only pi's session modules are imported (its package index loads the whole agent and
// TUI, ~2 s, which would not be a fair part of the comparison). pi's SessionManager
// rewrites files it migrates: the bench gives it version 3 files only.
import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

function piDir() {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const p = join(dir, "node_modules", "@mariozechner", "pi-coding-agent", "dist");
    if (existsSync(p)) return p;
    if (dirname(dir) === dir) throw new Error("@mariozechner/pi-coding-agent is not installed (devDependency: npm ci)");
  }
}

const dir = piDir();
const { SessionManager } = await import(pathToFileURL(join(dir, "core", "session-manager.js")).href);
const { convertToLlm } = await import(pathToFileURL(join(dir, "core", "messages.js")).href);

const file = process.argv[2];
const sm = SessionManager.open(file);
const ctx = sm.buildSessionContext();
const out = { leafId: sm.getLeafId(), thinkingLevel: ctx.thinkingLevel, model: ctx.model, messages: convertToLlm(ctx.messages) };
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
