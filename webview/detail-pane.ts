import type { CompactionFacts, DetailBlock, EntryAction, EntryDetails } from "../src/protocol";
import { costHeadline } from "../src/core/usage/cost-words";
import { humanUsd } from "../src/core/util/human";
import { clear, codicon, custom, el, formatInt, formatTokens, oneLine, visible } from "./dom";
import { editDiffs } from "./edit-diff";
import { iconFor } from "./row-view";

const SAFE_IMAGE = /^data:image\/(png|jpeg|jpg|gif|webp|bmp);base64,[A-Za-z0-9+/=\s]*$/i;

/** Only inline raster images: anything else (http:, javascript:, svg) is refused. */
export function isSafeImageUri(uri: string | undefined): uri is string {
  return typeof uri === "string" && SAFE_IMAGE.test(uri);
}

const ACTIONS: Array<{ action: EntryAction; text: string; icon: string; boundaryOnly?: true }> = [
  { action: "fork", text: "Fork here", icon: "repo-forked" },
  { action: "continue", text: "Continue here", icon: "debug-continue" },
  { action: "label", text: "Label", icon: "tag" },
  { action: "previewContext", text: "Preview context", icon: "open-preview" },
  { action: "compareContext", text: "Compare context with…", icon: "diff" },
  { action: "compactionChange", text: "What this compaction changed", icon: "diff-multiple", boundaryOnly: true },
  { action: "compact", text: "Compact here", icon: "fold" },
];

const BLOCK_TITLES: Record<DetailBlock["kind"], string> = {
  text: "Text",
  thinking: "Thinking",
  toolCall: "Tool call",
  toolResult: "Tool result",
  image: "Image",
  summary: "Summary",
  bash: "Bash",
  json: "Entry",
};
const BLOCK_ICONS: Record<DetailBlock["kind"], string> = {
  text: "note",
  thinking: "lightbulb",
  toolCall: "tools",
  toolResult: "output",
  image: "file-media",
  summary: "fold",
  bash: "terminal",
  json: "json",
};

export interface DetailCallbacks {
  action(action: EntryAction, id: string): void;
  /** Fetch the whole text of block n (it was cut for display). */
  showAll(id: string, block: number): Promise<DetailBlock | undefined>;
  /** Open the transcript of sub-agent `agentId` that entry `id` started. */
  openSubagent(id: string, agentId: string): void;
}

/** The title of a compaction box, e.g. Compaction (auto): 160.5k tokens before, 2.1k after, 42 messages summarized. */
export function compactionTitle(c: CompactionFacts): string {
  const sizes = `${formatTokens(c.tokensBefore)} tokens before${c.tokensAfter !== undefined ? `, ${formatTokens(c.tokensAfter)} after` : ""}`;
  const what = [c.summarizedEntries !== undefined ? `${c.summarizedEntries} message${c.summarizedEntries === 1 ? "" : "s"} summarized` : "", c.firstKeptEntryId ? `kept from ${c.firstKeptEntryId}` : ""].filter((x) => x);
  return `Compaction${c.trigger ? ` (${c.trigger})` : ""}: ${[sizes, ...what].join(", ")}`;
}

/** The selected entry: its blocks as text, images, metadata, compaction info and actions. */
export class DetailPane {
  readonly element = el("section", { className: "detail-pane", attrs: { "aria-label": "Entry details", "aria-live": "polite" } });
  private unavailable: Partial<Record<EntryAction, string>> = {};

  constructor(private readonly cb: DetailCallbacks) {
    this.renderEmpty("Select an entry to see its details.");
  }

  /** Actions the session does not offer, with the reason each button's tooltip gives. */
  setUnavailable(unavailable: Partial<Record<EntryAction, string>>): void {
    this.unavailable = unavailable;
  }

  renderEmpty(text: string): void {
    clear(this.element);
    this.element.appendChild(el("div", { className: "empty", text }));
  }

  render(d: EntryDetails): void {
    clear(this.element);
    this.element.dataset.id = d.id;
    const kind = d.typeLabel;
    const head = el("div", { className: "detail-head" }, [
      codicon(iconFor(d)),
      el("span", { className: "detail-kind", text: kind, ...(d.typeName ? { title: `Its type in the session file: ${d.typeName}` } : {}) }),
      ...(d.typeName ? [el("span", { className: "detail-type-name", text: oneLine(d.typeName, 100) })] : []),
      ...(d.label ? [el("span", { className: "chip label-chip", text: oneLine(d.label, 300), title: d.label })] : []),
      el("span", { className: "detail-id", text: `${d.id} · line ${d.line} · ${d.timestamp}` }),
    ]);
    this.element.append(head, this.actions(d.id, d.kind === "boundary", d.unavailable));
    if (d.stepCost) {
      const c = d.stepCost;
      const how = c.source === "recorded" ? "recorded by the agent" : c.source === "priced" ? "priced per model" : "no price for its model (set agentSessions.modelPrices)";
      this.element.appendChild(el("div", { className: "step-cost", text: `This step: ${c.source === "none" ? "unpriced" : humanUsd(c.usd)} (${how})` }));
    }
    if (d.compaction) this.element.appendChild(this.compaction(d));
    for (const a of d.subagents ?? []) this.element.appendChild(this.subagent(d.id, a));
    d.blocks.forEach((b, i) => this.element.appendChild(this.block(d.id, b, i)));
    if (d.meta.length) this.element.appendChild(this.meta(d.meta));
  }

  /** `own`: what this entry does not offer beyond the session (a sub-agent's nested entry). */
  private actions(id: string, boundary: boolean, own: EntryDetails["unavailable"]): HTMLElement {
    const bar = el("div", { className: "actions", attrs: { role: "toolbar", "aria-label": "Entry actions" } });
    for (const a of ACTIONS) {
      if (a.boundaryOnly && !boundary) continue;
      const btn = custom("vscode-button", { icon: a.icon, secondary: "", "data-action": a.action });
      btn.textContent = a.text;
      const why = own?.[a.action] ?? this.unavailable[a.action];
      if (why) {
        btn.setAttribute("disabled", "");
        btn.setAttribute("title", `${a.text}: not available. ${why}`);
      }
      btn.addEventListener("click", () => {
        if (!btn.hasAttribute("disabled")) this.cb.action(a.action, id);
      });
      bar.appendChild(btn);
    }
    return bar;
  }

  /** The sub-agent this entry started: what it was asked, and a button to its own transcript. */
  private subagent(id: string, a: NonNullable<EntryDetails["subagents"]>[number]): HTMLElement {
    const who = a.inlineEntryId !== undefined ? "Sub-agent written inline" : `Sub-agent ${oneLine(a.agentId, 100)}`;
    const what = `${who}${a.agentType ? ` (${oneLine(a.agentType, 100)})` : ""}${a.description ? `: ${oneLine(a.description, 300)}` : ""}`;
    const box = el("div", { className: "subagent-info" }, [el("div", { className: "section-title", text: what })]);
    const f = a.figures;
    if (f) {
      const cost = f.steps ? ` · ${costHeadline(f)}` : "";
      box.appendChild(el("div", { className: "subagent-figures", text: `Its context at its end: ${f.source === "estimate" ? "~" : ""}${formatTokens(f.contextTokens)} of ${formatTokens(f.contextWindow)}${cost}` }));
    }
    if (a.found) {
      const inline = a.inlineEntryId !== undefined;
      const btn = custom("vscode-button", { icon: inline ? "arrow-down" : "go-to-file", secondary: "", "data-action": "openSubagent" });
      btn.textContent = inline ? "Show Its Lines" : "Open Sub-agent Transcript";
      btn.addEventListener("click", () => this.cb.openSubagent(id, a.agentId));
      box.appendChild(btn);
    } else box.appendChild(el("div", { className: "warning", text: "Its transcript is not beside this session (an older layout keeps it inline, or the file was removed)." }));
    return box;
  }

  private compaction(d: EntryDetails): HTMLElement {
    const c = d.compaction!;
    const box = el("div", { className: "compaction-info" }, [
      el("div", { className: "section-title", text: compactionTitle(c) }),
      ...(c.missingParent ? [el("div", { className: "warning", text: `It names ${c.missingParent} as the last entry before it, which is not in this file: what it summarized cannot be shown.` })] : []),
      el("pre", { className: "block-text", text: c.summary || "(no summary found under it)" }),
    ]);
    const files = (title: string, list: string[]): HTMLElement =>
      el("div", { className: "compaction-files" }, [
        el("div", { className: "section-title", text: `${title} (${list.length})` }),
        el("ul", {}, list.map((f) => el("li", { text: f }))),
      ]);
    box.append(files("Read files", c.readFiles), files("Modified files", c.modifiedFiles));
    return box;
  }

  private block(id: string, b: DetailBlock, index: number): HTMLElement {
    const title = `${BLOCK_TITLES[b.kind]}${b.title ? `: ${oneLine(b.title, 300)}` : ""}`;
    const summary = el("summary", { className: "block-title" }, [codicon(BLOCK_ICONS[b.kind]), el("span", { text: title })]);
    const box = el("details", { className: `block kind-${b.kind}${b.isError ? " error" : ""}`, attrs: { "data-block": String(index) } }, [summary]);
    box.open = b.kind !== "thinking" || (b.text?.length ?? 0) < 2000;
    if (b.kind === "image") {
      if (isSafeImageUri(b.dataUri)) {
        const img = el("img", { className: "block-image", attrs: { alt: oneLine(b.title ?? `image ${index + 1}`, 300) } });
        img.src = b.dataUri;
        box.appendChild(img);
      } else {
        box.appendChild(el("div", { className: "warning", text: `Image not shown: only inline data:image URIs are allowed (${b.mimeType ?? "unknown type"}).` }));
      }
    }
    // An edit reads as its diff; its JSON says the same less clearly.
    if (b.edits?.length) box.appendChild(editDiffs(b.edits));
    else if (b.text !== undefined) {
      const pre = el("pre", { className: "block-text", text: b.text });
      box.appendChild(pre);
      if (b.fullLength !== undefined && b.fullLength > b.text.length) {
        const more = custom("vscode-button", { secondary: "", icon: "unfold", "data-show-all": String(index) });
        more.textContent = `Show all (${formatInt(b.fullLength)} characters)`;
        more.addEventListener("click", () => {
          more.setAttribute("disabled", "");
          void this.cb.showAll(id, index).then((full) => {
            if (full?.text !== undefined && this.element.dataset.id === id) {
              pre.textContent = visible(full.text);
              more.remove();
            } else {
              more.removeAttribute("disabled");
            }
          });
        });
        box.appendChild(more);
      }
    }
    return box;
  }

  private meta(meta: Array<[string, string]>): HTMLElement {
    const dl = el("dl", { className: "meta" });
    for (const [k, v] of meta) dl.append(el("dt", { text: k }), el("dd", { text: v }));
    return el("div", { className: "meta-box" }, [el("div", { className: "section-title", text: "Metadata" }), dl]);
  }
}
