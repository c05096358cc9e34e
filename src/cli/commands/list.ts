import { join } from "node:path";
import { homedir } from "node:os";
import { listAllSessions } from "../../core/formats/list-all";
import { clipText, shownField } from "../../core/util/visible-text";
import { onlyAgents, parseDirs } from "../agent-dirs";
import { parseFlags } from "../args";
import type { CliCommand } from "../cli-error";
import { CliError } from "../cli-error";
import { humanBytes, relativeTime } from "../format";

const usage = "ase list [--dir [AGENT=]D]... [--agent A]... [--json] [--no-cache]";

/** Where the listing caches its summaries (also `ase cost --total`'s). */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "agent-session-explorer");
}

export const listCommand: CliCommand = {
  name: "list",
  usage,
  summary: "sessions of every agent, grouped by project, newest first",
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      { dir: { type: "string", multiple: true }, agent: { type: "string", multiple: true }, json: { type: "boolean" }, "no-cache": { type: "boolean" } },
      usage,
    );
    if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}" (usage: ${usage})`);
    const dirs = parseDirs(values.dir ?? []);
    const only = onlyAgents(values.agent, dirs);
    const res = await listAllSessions({ dirs, only, cacheDir: values["no-cache"] ? undefined : cacheDir(io.env), env: io.env });
    if (values.json) {
      const dir = res.roots.find((r) => r.agent === "pi")?.root ?? res.roots[0]?.root;
      io.out(`${JSON.stringify({ dir, roots: res.roots, projects: res.projects, skipped: res.skipped, notes: res.notes }, null, 2)}\n`);
      for (const n of res.notes) io.err(`note: ${shownField(n.path)}: ${shownField(n.reason)}\n`);
      return;
    }
    if (!res.projects.length) io.out(`no sessions under ${res.roots.map((r) => `${shownField(r.root)} (${r.agent})`).join(", ")}\n`);
    const now = Date.now();
    const several = res.roots.filter((r) => r.sessions > 0).length > 1;
    for (const p of res.projects) {
      io.out(`${p.cwd ? shownField(p.cwd) : "(no cwd)"}  (${p.sessions.length} session${p.sessions.length === 1 ? "" : "s"})\n`);
      for (const s of p.sessions) {
        const title = s.name ?? (s.firstMessage || "(no messages)");
        const fork = s.parentSession ? " ⑂" : "";
        const agent = several || s.agent !== "pi" ? ` [${shownField(s.agent)}]` : "";
        io.out(`  ${relativeTime(s.mtimeMs, now).padEnd(9)} ${String(s.entryCount).padStart(6)} entries ${humanBytes(s.size).padStart(8)}${fork}${agent}  ${shownField(clipText(title, 80))}\n`);
        io.out(`            ${shownField(s.path)}\n`);
        for (const a of s.subagents ?? []) {
          io.out(`            ↳ sub-agent ${shownField(clipText(a.description ?? a.agentId, 80))}${a.agentType ? ` (${shownField(a.agentType)})` : ""}  ${a.entryId !== undefined ? "inline" : humanBytes(a.size)}\n`);
          io.out(a.entryId !== undefined ? `              written inline, from entry ${shownField(a.entryId)}\n` : `              ${shownField(a.path)}\n`);
        }
      }
    }
    for (const s of res.skipped) io.err(`skipped ${shownField(s.path)}: ${shownField(s.reason)}\n`);
    for (const n of res.notes) io.err(`note: ${shownField(n.path)}: ${shownField(n.reason)}\n`);
  },
};
