import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { SystemPrompt, SystemPromptPart } from "../../../session/system-prompt";
import { readTextFile } from "../../../util/safe-open";

/**
 * pi does not store its system prompt in the session file, so we rebuild what can be
 * known from the files pi reads, as they are on this machine NOW (they may have changed
 * since the session ran). Checked against pi's resource-loader.ts and system-prompt.ts
 * (badlogic/pi-mono, packages/coding-agent/src/core):
 *
 * Reproduced:
 * - project context files: in the agent dir ($PI_CODING_AGENT_DIR, else ~/.pi/agent)
 *   AGENTS.md, else CLAUDE.md (one file per directory, AGENTS.md first); then the same
 *   lookup in every directory from the filesystem root down to the session's cwd, a path
 *   already taken being skipped;
 * - SYSTEM.md: <cwd>/.pi/SYSTEM.md, else <agentDir>/SYSTEM.md. It REPLACES pi's built-in
 *   prompt, and then context files only appear where it says {{context}};
 * - APPEND_SYSTEM.md: <cwd>/.pi/APPEND_SYSTEM.md, else <agentDir>/APPEND_SYSTEM.md,
 *   appended after the base prompt;
 * - the order: base (or SYSTEM.md), append, context files.
 *
 * Not reproduced (so the text undercounts; the budget's "system" part still gets the
 * real remainder from recorded usage): pi's built-in prompt text (tool list, guidelines,
 * documentation paths; it depends on the pi version and enabled tools), skills listed
 * for the read tool, the date/time and working-directory lines, prompts given on pi's
 * command line (--system-prompt / --append-system-prompt) and extension overrides, tool
 * definitions (sent beside the prompt, not in it). Our framing of the context files is
 * our own short heading, not pi's wording.
 */
export interface ReconstructOptions {
  /** The session's working directory (from its header). */
  cwd: string;
  /** pi's agent dir; default from env as pi computes it. */
  agentDir?: string;
  env?: NodeJS.ProcessEnv;
}

/** pi's getAgentDir: $PI_CODING_AGENT_DIR (with ~ expanded) or ~/.pi/agent. */
export function piAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.PI_CODING_AGENT_DIR;
  if (fromEnv) {
    if (fromEnv === "~") return homedir();
    if (fromEnv.startsWith("~/")) return join(homedir(), fromEnv.slice(2));
    return fromEnv;
  }
  return join(homedir(), ".pi", "agent");
}

function readIfFile(path: string): string | undefined {
  try {
    if (!existsSync(path) || !statSync(path).isFile()) return undefined;
    return readTextFile(path);
  } catch {
    return undefined;
  }
}

function contextFileIn(dir: string): { path: string; content: string } | undefined {
  for (const name of ["AGENTS.md", "CLAUDE.md"]) {
    const path = join(dir, name);
    const content = readIfFile(path);
    if (content !== undefined) return { path, content };
  }
  return undefined;
}

/** The project context files pi loads for a cwd, in pi's order. */
export function projectContextFiles(cwd: string, agentDir: string): Array<{ path: string; content: string }> {
  const out: Array<{ path: string; content: string }> = [];
  const seen = new Set<string>();
  const global = contextFileIn(agentDir);
  if (global) {
    out.push(global);
    seen.add(global.path);
  }
  const ancestors: Array<{ path: string; content: string }> = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const f = contextFileIn(dir);
    if (f && !seen.has(f.path)) {
      ancestors.unshift(f);
      seen.add(f.path);
    }
    if (dirname(dir) === dir) break;
  }
  return [...out, ...ancestors];
}

function firstFile(paths: string[]): { path: string; content: string } | undefined {
  for (const path of paths) {
    const content = readIfFile(path);
    if (content !== undefined) return { path, content };
  }
  return undefined;
}

function contextBlock(files: Array<{ path: string; content: string }>): string {
  if (!files.length) return "";
  return `# Context files (reconstructed)\n\n${files.map((f) => `## ${f.path}\n\n${f.content}\n\n`).join("")}`;
}

/** Rebuilds the parts of pi's system prompt that come from files. */
export function reconstructSystemPrompt(opts: ReconstructOptions): SystemPrompt {
  const agentDir = opts.agentDir ?? piAgentDir(opts.env);
  const cwd = opts.cwd;
  const files = projectContextFiles(cwd, agentDir);
  const system = firstFile([join(cwd, ".pi", "SYSTEM.md"), join(agentDir, "SYSTEM.md")]);
  const append = firstFile([join(cwd, ".pi", "APPEND_SYSTEM.md"), join(agentDir, "APPEND_SYSTEM.md")]);
  const parts: SystemPromptPart[] = [];
  const notes = [`reconstructed from files on this machine now (cwd ${cwd}, agent dir ${agentDir}); they may differ from when the session ran`];
  const chunks: string[] = [];
  let includeContext = true;
  if (system) {
    parts.push({ source: "system-file", path: system.path, text: system.content });
    includeContext = system.content.includes("{{context}}");
    chunks.push(system.content.replace("{{context}}", contextBlock(files)).replace("{{tools}}", "").replace("{{skills}}", ""));
    if (!includeContext && files.length) notes.push(`${system.path} has no {{context}}: pi leaves the ${files.length} context file(s) out`);
    notes.push("{{tools}} and {{skills}} in SYSTEM.md are left empty (not reproduced)");
  } else {
    notes.push("pi's built-in base prompt (tools, guidelines, doc paths), skills and date/cwd lines are not reproduced");
  }
  if (append) {
    parts.push({ source: "append-file", path: append.path, text: append.content });
    chunks.push(append.content);
  }
  if (includeContext) {
    for (const f of files) parts.push({ source: "context-file", path: f.path, text: f.content });
    if (!system && files.length) chunks.push(contextBlock(files));
  } else {
    for (const f of files) notes.push(`not included: ${f.path}`);
  }
  if (!parts.length) notes.push("no SYSTEM.md, APPEND_SYSTEM.md, AGENTS.md or CLAUDE.md found");
  return { reconstructed: true, text: chunks.join("\n\n"), parts, notes };
}
