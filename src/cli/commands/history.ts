import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { FileTouch } from "../../core/history/file-touch";
import { HistoryIndex } from "../../core/history/history-index";
import { clipText } from "../../core/util/visible-text";
import { onlyAgents, parseDirs } from "../agent-dirs";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { safeText } from "../format";
import { cacheDir } from "./list";

const usage = "ase history PATH [--dir [AGENT=]D]... [--agent A]... [--json] [--no-cache]";

function timeText(iso: string | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "-".padEnd(16);
}

/** The file a history is asked for: an existing file (not a folder, not a typo). */
function fileArg(raw: string, cwd: string): string {
  const path = resolve(cwd, raw);
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`${safeText(raw)}: no such file`);
  }
  if (st.isDirectory()) throw new CliError(`${safeText(raw)} is a folder; give a file (ase history src/app.ts)`);
  return path;
}

function touchText(t: FileTouch): string {
  const head = `${timeText(t.timestamp)}  ${safeText(t.agent).padEnd(12)} ${t.operation.padEnd(5)}  ${safeText(clipText(t.sessionTitle, 80))}\n`;
  const prompt = t.prompt ? `    prompt: ${safeText(clipText(t.prompt, 120))}\n` : "";
  const other = t.otherCheckout ? `  (other checkout: ${safeText(t.otherCheckout)})` : "";
  return `${head}${prompt}    ${safeText(t.sessionPath)}  entry ${safeText(t.entryId)}${other}\n`;
}

export const historyCommand: CliCommand = {
  name: "history",
  usage,
  summary: "every session entry of every agent that read, wrote or edited a file, newest first",
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      { dir: { type: "string", multiple: true }, agent: { type: "string", multiple: true }, json: { type: "boolean" }, "no-cache": { type: "boolean" } },
      usage,
    );
    const path = fileArg(onePositional(positionals, "file", usage), io.cwd);
    const dirs = parseDirs(values.dir ?? []);
    const index = new HistoryIndex({ dirs, only: onlyAgents(values.agent, dirs), cacheDir: values["no-cache"] ? undefined : cacheDir(io.env), env: io.env });
    await index.refresh();
    const touches = index.lookup(path);
    // A session that could not be read is said, never silently left out.
    for (const p of index.problems) io.err(`note: ${safeText(p.path)}: not read (${safeText(p.reason)})\n`);
    // An edit's text its session no longer holds where it was indexed: said once per session.
    for (const note of new Set(touches.flatMap((t) => (t.textNote ? [t.textNote] : [])))) io.err(`note: ${safeText(note)}\n`);
    if (values.json) {
      io.out(`${JSON.stringify(touches, null, 2)}\n`);
      return;
    }
    if (!touches.length) {
      io.out(`no agent read, wrote or edited ${safeText(path)} (${index.sessionCount} session file(s) indexed)\n`);
      return;
    }
    const sessions = new Set(touches.map((t) => t.sessionPath)).size;
    io.out(`${safeText(path)}: ${touches.length} entr${touches.length === 1 ? "y" : "ies"} in ${sessions} session(s), newest first\n`);
    for (const t of touches) io.out(touchText(t));
  },
};
