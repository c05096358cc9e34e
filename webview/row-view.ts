import { KIND_ICONS } from "../src/kind-icons";
import type { Row } from "../src/protocol";
import { clip, codicon, el, formatInt, formatTokens, oneLine, TITLE_MAX } from "./dom";
import { markedNodes } from "./highlight";
import { subagentChip, subagentKey } from "./subagent-cue";

export interface RowPaintState {
  selected: boolean;
  match: boolean;
  currentMatch: boolean;
  setSize: number;
  /** The search term, marked in the text of a matching row. */
  query: string;
  /** The first row of a run the compaction summarized: it carries the "summarized" badge. */
  summaryStart: boolean;
}

/** What the token column's figure is (the header's tooltip and each figure's). */
export const TOKENS_MEANING = "Estimated tokens this entry adds to the context (from its text, about 4 characters a token; not recorded usage)";

/** The heads over the rows: what they are, and what the figure on their right is (estimated tokens). */
export function columnHead(): HTMLElement {
  return el("div", { className: "tree-head", attrs: { "aria-hidden": "true" } }, [
    el("span", { className: "tree-head-entry", text: "Entry" }),
    el("span", { className: "tree-head-tokens", text: "~tokens", title: TOKENS_MEANING }),
  ]);
}

/** The codicon of a row: by its neutral kind (the webview knows no format's own entry types). */
export function iconFor(row: Pick<Row, "kind">): string {
  return KIND_ICONS[row.kind] ?? "circle-small";
}

export function isFoldable(row: Row): boolean {
  return !row.subagents && (row.folded || row.childCount > 1);
}

/** Whether the row expands (a branch point, or a call into its sub-agents) and is expanded. */
function expandedState(row: Row): boolean | undefined {
  if (row.subagents) return row.subagents.expanded;
  return isFoldable(row) ? !row.folded : undefined;
}

/** The row's tree level for screen readers (1 at the top). */
export function levelOf(row: Row): number {
  return row.depth + 1;
}

/** Longest preview and label chip a row shows (the host's previews are 100 chars; labels are anything). */
const PREVIEW_MAX = 300;
const LABEL_MAX = 120;

function kindName(row: Row): string {
  const name = row.typeLabel.replace(/_/g, " ");
  return row.kind === "user" || row.kind === "assistant" ? `${name} message` : name;
}

/** What a screen reader says for the row. */
export function rowLabel(row: Row): string {
  const parts = [kindName(row), clip(row.preview, PREVIEW_MAX) || "(empty)", `${row.tokens} tokens`];
  if (row.isError) parts.push("error");
  if (row.brokenParent) parts.push("broken link: its parent is not in the file");
  if (row.label) parts.push(`label ${oneLine(row.label, LABEL_MAX)}`);
  if (row.compaction) parts.push(`compaction, ${row.compaction.tokensBefore} tokens before`);
  if (row.boundary === "summarized") parts.push("summarized by a compaction");
  if (row.boundary === "kept-start") parts.push("kept context starts here");
  if (row.isActiveLeaf) parts.push("active leaf");
  else if (row.onActivePath) parts.push("on active path");
  if (row.isDefaultLeaf) parts.push("default leaf");
  if (row.childCount > 1) parts.push(`${row.childCount} branches${row.folded ? ", folded" : ""}`);
  if (row.subagents) parts.push(`starts ${row.subagents.agents.length === 1 ? "a sub-agent" : `${row.subagents.agents.length} sub-agents`}${row.subagents.expanded ? ", shown" : ""}`);
  if (row.nested) parts.push("a sub-agent's entry, read-only");
  return oneLine(parts.join(", "), TITLE_MAX);
}

/** Paints one row into a pooled element; the element is rebuilt only when the row or its state changed. */
export function paintRow(node: HTMLElement, index: number, row: Row | undefined, st: RowPaintState): void {
  node.id = `row-${index}`;
  node.setAttribute("role", "treeitem");
  node.setAttribute("aria-posinset", String(index + 1));
  node.setAttribute("aria-setsize", String(st.setSize));
  node.setAttribute("aria-selected", String(st.selected));
  node.dataset.index = String(index);
  const key = row ? `${row.id}|${row.folded}|${clip(row.label ?? "", TITLE_MAX)}|${row.tokens}|${row.isActiveLeaf}|${row.onActivePath}|${row.boundary ?? ""}|${row.childCount}|${subagentKey(row)}` : "loading";
  const stateKey = `${st.selected}|${st.match}|${st.currentMatch}|${st.match ? st.query : ""}|${st.summaryStart}`;
  if (node.dataset.key === key && node.dataset.state === stateKey && node.dataset.pos === String(index)) return;
  node.dataset.key = key;
  node.dataset.state = stateKey;
  node.dataset.pos = String(index);

  const cls = ["row"];
  if (st.selected) cls.push("selected");
  if (st.match) cls.push("match");
  if (st.currentMatch) cls.push("current-match");
  if (!row) {
    node.className = [...cls, "loading"].join(" ");
    node.removeAttribute("aria-expanded");
    node.setAttribute("aria-level", "1");
    node.setAttribute("aria-label", "loading");
    node.replaceChildren(el("span", { className: "preview", text: "…" }));
    delete node.dataset.id;
    delete node.dataset.vscodeContext;
    return;
  }
  if (row.onActivePath) cls.push("active-path");
  if (row.isActiveLeaf) cls.push("active-leaf");
  if (row.isDefaultLeaf) cls.push("default-leaf");
  if (row.compaction) cls.push("compaction-row");
  if (row.boundary) cls.push(`boundary-${row.boundary}`);
  cls.push(`kind-${row.kind}`);
  if (row.isError) cls.push("is-error");
  if (row.nested) cls.push("nested");
  node.className = cls.join(" ");
  node.dataset.id = row.id;
  // VS Code's context menu for the row (package.json menus webview/context): the entry it acts on.
  // A sub-agent's nested row is read-only: its own section, which no entry action's menu names.
  node.dataset.vscodeContext = JSON.stringify({ webviewSection: row.nested ? "nestedRow" : "row", entryId: row.id, isBoundary: row.kind === "boundary", preventDefaultContextMenuItems: true });
  node.setAttribute("aria-level", String(levelOf(row)));
  const expanded = expandedState(row);
  if (expanded !== undefined) node.setAttribute("aria-expanded", String(expanded));
  else node.removeAttribute("aria-expanded");
  node.setAttribute("aria-label", rowLabel(row));

  const twisty = row.subagents
    ? el("span", { className: `twisty codicon codicon-${row.subagents.expanded ? "chevron-down" : "chevron-right"}`, title: row.subagents.expanded ? "Hide the sub-agent's steps" : "Show the sub-agent's steps", attrs: { "data-action": "subagent", "aria-hidden": "true" } })
    : isFoldable(row)
    ? el("span", { className: `twisty codicon codicon-${row.folded ? "chevron-right" : "chevron-down"}`, title: row.folded ? "Unfold branch" : "Fold branch", attrs: { "data-action": "fold", "aria-hidden": "true" } })
    : el("span", { className: "twisty", attrs: { "aria-hidden": "true" } });
  // A call that started sub-agents: the agent's icon, the cue that it expands into them.
  const icon = codicon(row.subagents ? "agent" : iconFor(row));
  icon.classList.add("role-icon");
  const children: Node[] = [el("span", { className: "prefix", text: row.prefix, attrs: { "aria-hidden": "true" } }), twisty, icon];
  if (row.nested) {
    // Indented under the call that started it, one guide a level, as VS Code's trees draw them.
    const guides = el("span", { className: "nest-indent", attrs: { "aria-hidden": "true" } });
    guides.style.width = `${row.nested.indent * 16}px`;
    children.unshift(guides);
  }
  const query = st.match ? st.query : "";
  children.push(el("span", { className: "preview" }, markedNodes(oneLine(row.preview, PREVIEW_MAX), query)));
  if (row.label) children.push(el("span", { className: "chip label-chip", title: row.label }, markedNodes(oneLine(row.label, LABEL_MAX), query)));
  if (row.boundary === "summarized" && st.summaryStart) {
    children.push(el("span", { className: "chip summarized-chip", text: "summarized", title: "This entry and those after it up to the kept part are summarized by a compaction: the model sees the summary, not them." }));
  }
  if (row.brokenParent) {
    const title = `Broken link: its parent ${oneLine(row.brokenParent, 200)} is not in this file (or would close a cycle), so the part from here on is shown as a root.`;
    children.push(el("span", { className: "chip broken-chip", text: "parent missing", title }));
  }
  if (row.compaction) {
    children.push(el("span", { className: "chip compaction-chip", text: `compacted ${formatTokens(row.compaction.tokensBefore)}`, title: "Compaction: tokens in context before it ran" }));
  }
  if (row.boundary === "kept-start") children.push(el("span", { className: "chip kept-chip", text: "kept from here" }));
  if (row.subagents) children.push(subagentChip(row.subagents));
  if (row.isDefaultLeaf) children.push(el("span", { className: "chip leaf-chip", text: "leaf" }));
  if (row.folded) children.push(el("span", { className: "chip fold-chip", text: `+${row.childCount}` }));
  children.push(el("span", { className: "tokens", text: formatTokens(row.tokens), title: `~${formatInt(row.tokens)} tokens. ${TOKENS_MEANING}.` }));
  node.replaceChildren(...children);
}
