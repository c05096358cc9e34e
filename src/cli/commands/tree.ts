import { treeRows } from "../../core/tree/tree-rows";
import { parseFlags, onePositional } from "../args";
import type { CliCommand } from "../cli-error";
import { humanTokens, safeText } from "../format";
import { loadSession, reportProblems, requireEntry } from "../load";

const usage = "ase tree <file> [--all] [--leaf ID] [--json]";

const ROLE: Record<string, string> = {
  user: "user",
  assistant: "asst",
  toolResult: "tool",
  bashExecution: "bash",
  custom: "cust",
};

export const treeCommand: CliCommand = {
  name: "tree",
  usage,
  summary: "the entry tree like pi's /tree",
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { all: { type: "boolean" }, json: { type: "boolean" }, leaf: { type: "string" } }, usage);
    const session = await loadSession(onePositional(positionals, "session file", usage));
    const leaf = requireEntry(session, values.leaf, "leaf");
    const rows = treeRows(session, { all: values.all, leaf });
    const labels = session.tree.labels;
    const metas = session.metas;
    if (values.json) {
      const entries = rows.map((r) => {
        const m = metas[r.index];
        return {
          id: m.id,
          parentId: m.parentId,
          type: m.type,
          role: m.role,
          line: m.line,
          preview: m.preview,
          tokens: m.estimate,
          label: labels.get(m.id),
          children: session.tree.childCount(r.index),
          onActivePath: r.onActivePath,
          prefix: r.prefix,
          depth: r.depth,
        };
      });
      const out = { path: session.path, version: session.version, name: session.tree.name, leafId: metas[leaf]?.id ?? null, entries, problems: session.problems };
      io.out(`${JSON.stringify(out, null, 2)}\n`);
      return;
    }
    reportProblems(session, io.err);
    io.out(`${safeText(session.path)}${session.tree.name ? `  "${safeText(session.tree.name)}"` : ""}  (v${session.version}, ${metas.length} entries)\n`);
    for (const r of rows) {
      const m = metas[r.index];
      const mark = r.isActiveLeaf ? "◉" : r.onActivePath ? "•" : " ";
      const label = labels.get(m.id);
      const kind = safeText(m.type === "message" ? (ROLE[m.role ?? ""] ?? m.role ?? "?") : m.type === "compaction" ? "⟲" : m.type);
      const tokens = m.estimate ? ` · ${humanTokens(m.estimate)}` : "";
      let text = safeText(m.preview);
      if (m.type === "compaction") text = `compaction: ${m.tokensBefore ?? "?"} tokens before, kept from ${m.firstKeptEntryId !== undefined ? safeText(m.firstKeptEntryId) : (m.hasRetainedTail ? "retained tail" : "nothing")}`;
      io.out(`${r.prefix}${mark} ${safeText(m.id)} ${kind}${label ? ` [${safeText(label)}]` : ""}: ${text}${tokens}${r.isActiveLeaf ? "  ← leaf" : ""}\n`);
    }
  },
};
