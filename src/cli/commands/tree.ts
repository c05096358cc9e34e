import { shownField } from "../../core/util/visible-text";
import type { EntryKind } from "../../core/session/entry-kinds";
import { treeRows } from "../../core/formats/tree-rows";
import { parseFlags, onePositional } from "../args";
import type { CliCommand } from "../cli-error";
import { humanTokens } from "../format";
import { loadSession, reportProblems, requireEntry } from "../load";

const usage = "ase tree <file> [--all] [--leaf ID] [--json]";

/** Short row marks by neutral kind; other kinds show the format's own label. */
const SHORT: Partial<Record<EntryKind, string>> = {
  user: "user",
  assistant: "asst",
  "tool-result": "tool",
  shell: "bash",
  injected: "cust",
  boundary: "⟲",
};

export const treeCommand: CliCommand = {
  name: "tree",
  usage,
  summary: "the entry tree like pi's /tree",
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { all: { type: "boolean" }, json: { type: "boolean" }, leaf: { type: "string" } }, usage);
    const session = await loadSession(onePositional(positionals, "session file", usage));
    const leaf = requireEntry(session, values.leaf, "leaf");
    // A text tree shows an inline sub-agent under the call that started it (the explorer nests it on demand).
    const rows = treeRows(session, { all: values.all, leaf, nestInline: true });
    const labels = session.tree.labels;
    const format = session.format;
    const version = format.info(session).version;
    const metas = session.metas;
    if (values.json) {
      const entries = rows.map((r) => {
        const m = metas[r.index];
        return {
          id: m.id,
          parentId: m.parentId,
          type: m.type,
          role: m.role,
          kind: format.describe(session, r.index).kind,
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
      const out = { path: session.path, format: format.id, version, name: session.tree.name, leafId: metas[leaf]?.id ?? null, entries, problems: session.problems };
      io.out(`${JSON.stringify(out, null, 2)}\n`);
      return;
    }
    reportProblems(session, io.err);
    io.out(`${shownField(session.path)}${session.tree.name ? `  "${shownField(session.tree.name)}"` : ""}  (${format.id === "pi" ? "" : `${format.agent}, `}${version !== undefined ? `v${version}, ` : ""}${metas.length} entries)\n`);
    for (const r of rows) {
      const m = metas[r.index];
      const mark = r.isActiveLeaf ? "◉" : r.onActivePath ? "•" : " ";
      const label = labels.get(m.id);
      const d = format.describe(session, r.index);
      const kind = shownField(SHORT[d.kind] ?? d.label.toLowerCase());
      const tokens = m.estimate ? ` · ${humanTokens(m.estimate)}` : "";
      // A response written over several lines: its row text names every call (describe).
      let text = shownField(d.preview ?? m.preview);
      if (d.kind === "boundary") {
        const kept = m.firstKeptEntryId !== undefined ? `, kept from ${shownField(m.firstKeptEntryId)}` : m.hasRetainedTail ? ", kept from retained tail" : "";
        text = `compaction: ${m.tokensBefore ?? "?"} tokens before${kept}`;
      }
      io.out(`${r.prefix}${mark} ${shownField(m.id)} ${kind}${label ? ` [${shownField(label)}]` : ""}: ${text}${tokens}${r.isActiveLeaf ? "  ← leaf" : ""}\n`);
    }
  },
};
