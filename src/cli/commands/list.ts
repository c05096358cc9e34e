import { join } from "node:path";
import { homedir } from "node:os";
import { listSessions } from "../../core/store/discover";
import { resolveSessionsDir } from "../../core/store/sessions-dir";
import { clipText } from "../../core/util/visible-text";
import { parseFlags } from "../args";
import type { CliCommand } from "../cli-error";
import { CliError } from "../cli-error";
import { humanBytes, relativeTime, safeText } from "../format";

const usage = "ase list [--dir D] [--json] [--no-cache]";

function cacheFile(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "agent-session-explorer", "list-cache.json");
}

export const listCommand: CliCommand = {
  name: "list",
  usage,
  summary: "sessions grouped by project, newest first",
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { dir: { type: "string" }, json: { type: "boolean" }, "no-cache": { type: "boolean" } }, usage);
    if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}" (usage: ${usage})`);
    const dir = resolveSessionsDir(values.dir, io.env);
    const res = await listSessions(dir, { cacheFile: values["no-cache"] ? undefined : cacheFile(io.env) });
    if (values.json) {
      io.out(`${JSON.stringify({ dir, projects: res.projects, skipped: res.skipped }, null, 2)}\n`);
      return;
    }
    if (!res.projects.length) io.out(`no pi sessions under ${safeText(dir)}\n`);
    const now = Date.now();
    for (const p of res.projects) {
      io.out(`${p.cwd ? safeText(p.cwd) : "(no cwd)"}  (${p.sessions.length} session${p.sessions.length === 1 ? "" : "s"})\n`);
      for (const s of p.sessions) {
        const title = s.name ?? (s.firstMessage || "(no messages)");
        const fork = s.parentSession ? " ⑂" : "";
        io.out(`  ${relativeTime(s.mtimeMs, now).padEnd(9)} ${String(s.entryCount).padStart(6)} entries ${humanBytes(s.size).padStart(8)}${fork}  ${safeText(clipText(title, 80))}\n`);
        io.out(`            ${safeText(s.path)}\n`);
      }
    }
    for (const s of res.skipped) io.err(`skipped ${safeText(s.path)}: ${safeText(s.reason)}\n`);
  },
};
