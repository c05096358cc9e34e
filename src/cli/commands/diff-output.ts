import type { CompactionSides } from "../../core/diff/compaction-change";
import type { ContextDiff, Delta, DiffOp, MessageRef, SideFacts } from "../../core/diff/diff-contexts";
import { messageText } from "../../core/diff/message-text";
import type { WordRun } from "../../core/util/word-diff";
import { TOKEN_KINDS } from "../../core/tokens/token-vocabulary";
import { clipText } from "../../core/util/visible-text";
import { safeText } from "../format";
import { pushAll } from "../../core/util/push-all";

const n = (x: number) => x.toLocaleString("en-US");
const signed = (x: number) => (x > 0 ? `+${n(x)}` : n(x));
const messages = (x: number) => `${n(x)} message${x === 1 ? "" : "s"}`;

/** One message ref in the JSON: where it is in its context and what it weighs. */
function refJson(r: MessageRef): Record<string, unknown> {
  return { index: r.index, entryId: r.entryId, kind: r.kind, tokens: r.tokens };
}

function sideJson(s: SideFacts): Record<string, unknown> {
  return { path: s.path, leafId: s.leafId, contextTokens: s.contextTokens, messages: s.messages };
}

/** The stable JSON of `ase diff --json` (README.md, "ase diff"); only ever extended. */
export function diffJson(d: ContextDiff, compaction?: CompactionSides & { beforeId: string | null; afterId: string }): unknown {
  return {
    a: sideJson(d.a),
    b: sideJson(d.b),
    sharedPrefix: d.sharedPrefix,
    ops: d.ops.map((o) => ({
      op: o.op,
      ...(o.op !== "onlyB" ? { a: refJson(o.a) } : {}),
      ...(o.op !== "onlyA" ? { b: refJson(o.b) } : {}),
      ...(o.op === "changed" ? { words: o.words, ...(o.replaced ? { replaced: true } : {}) } : {}),
    })),
    tokens: d.tokens,
    ...(compaction
      ? { compaction: { entryId: compaction.entryId, before: compaction.beforeId, after: compaction.afterId, ...(compaction.missingParent ? { missingParent: compaction.missingParent } : {}) } }
      : {}),
  };
}

/** Equal runs longer than this many words are shortened to their ends. */
const KEEP_WORDS = 12;
/** Characters of a removed or added run shown. */
const RUN_CHARS = 160;
/** Characters of a whole changed line, and of a one-sided message's preview. */
const LINE_CHARS = 400;
const PREVIEW_CHARS = 100;

/** A word diff on one line: [-removed-]{+added+}, long equal stretches cut to their ends. */
export function inlineWords(runs: readonly WordRun[]): string {
  const parts = runs.map((r, k) => {
    if (r.op !== "=") return r.op === "-" ? `[-${clipText(r.text, RUN_CHARS)}-]` : `{+${clipText(r.text, RUN_CHARS)}+}`;
    const w = r.text.split(" ");
    if (w.length <= KEEP_WORDS) return r.text;
    if (k === 0) return `… ${w.slice(-KEEP_WORDS / 2).join(" ")}`;
    if (k === runs.length - 1) return `${w.slice(0, KEEP_WORDS / 2).join(" ")} …`;
    return `${w.slice(0, KEEP_WORDS / 2 - 1).join(" ")} … ${w.slice(-KEEP_WORDS / 2 + 1).join(" ")}`;
  });
  // A replacement reads as one token: [-old-]{+new+}.
  const line = parts.map((p, k) => (k > 0 && runs[k].op === "+" && runs[k - 1].op === "-" ? p : ` ${p}`)).join("").trim();
  return safeText(clipText(line.replace(/\s+/g, " "), LINE_CHARS));
}

function preview(d: ContextDiff, side: "a" | "b", r: MessageRef): string {
  const text = messageText(d.contexts[side].messages[r.index].message).replace(/\s+/g, " ").trim();
  return safeText(clipText(text, PREVIEW_CHARS)) || "(empty)";
}

const refText = (r: MessageRef) => `#${r.index + 1} ${r.kind} ${safeText(r.entryId)}`;

/** Lines for the ops, a run of same messages as one line. */
function opLines(d: ContextDiff): string[] {
  const out: string[] = [];
  const ops = d.ops;
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k];
    if (o.op === "same") {
      let end = k;
      while (end + 1 < ops.length && ops[end + 1].op === "same") end++;
      const run = ops.slice(k, end + 1) as Array<Extract<DiffOp, { op: "same" }>>;
      if (run.length === 1) out.push(`  = ${refText(o.a)}${o.b.index !== o.a.index || o.b.entryId !== o.a.entryId ? ` (B #${o.b.index + 1} ${safeText(o.b.entryId)})` : ""} (${n(o.a.tokens)} tokens): ${preview(d, "a", o.a)}`);
      else {
        const tokens = run.reduce((s, r) => s + r.a.tokens, 0);
        out.push(`  = ${run.length} messages the same: A #${run[0].a.index + 1}-#${run[run.length - 1].a.index + 1}, B #${run[0].b.index + 1}-#${run[run.length - 1].b.index + 1} (${n(tokens)} tokens)`);
      }
      k = end;
    } else if (o.op === "onlyA") out.push(`  - ${refText(o.a)} (${n(o.a.tokens)} tokens): ${preview(d, "a", o.a)}`);
    else if (o.op === "onlyB") out.push(`  + ${refText(o.b)} (${n(o.b.tokens)} tokens): ${preview(d, "b", o.b)}`);
    else {
      const ids = o.a.entryId === o.b.entryId ? safeText(o.a.entryId) : `${safeText(o.a.entryId)} -> ${safeText(o.b.entryId)}`;
      const at = o.a.index === o.b.index ? `#${o.a.index + 1}` : `#${o.a.index + 1} -> #${o.b.index + 1}`;
      out.push(`  ~ ${at} ${o.a.kind} ${ids} (${n(o.a.tokens)} -> ${n(o.b.tokens)} tokens${o.replaced ? ", too different to diff by word" : ""}): ${inlineWords(o.words)}`);
    }
  }
  return out;
}

function row(name: string, v: Delta | { a: number | null; b: number | null; delta: number | null }): string {
  const cell = (x: number | null) => (x === null ? "-" : n(x)).padStart(10);
  return `  ${name.padEnd(24)}${cell(v.a)}${cell(v.b)}${(v.delta === null ? "-" : signed(v.delta)).padStart(10)}`;
}

function sideLine(name: string, s: SideFacts): string {
  return `${name}: ${safeText(s.path)}  leaf ${s.leafId === null ? "(none)" : safeText(s.leafId)}  (${safeText(s.agent)}, ${messages(s.messages)}, ${n(s.contextTokens)} context tokens)`;
}

/** `ase diff` as text: both sides, the shared prefix, the ops with markers, the tokens per part. */
export function diffText(d: ContextDiff, compaction?: { entryId: string; beforeId: string | null; afterId: string; missingParent?: string; staleUsage?: boolean }): string {
  const lines: string[] = [];
  if (compaction) {
    lines.push(`compaction ${safeText(compaction.entryId)}: A = the context just before it (at ${compaction.beforeId === null ? "no entry" : safeText(compaction.beforeId)}), B = just after it (at ${safeText(compaction.afterId)})`);
    if (compaction.missingParent) lines.push(`  it names ${safeText(compaction.missingParent)} as the entry before it, which is not in this file: A is empty`);
  }
  lines.push(sideLine("A", d.a), sideLine("B", d.b), `shared prefix: ${messages(d.sharedPrefix.messages)} (${n(d.sharedPrefix.tokens)} tokens)`);
  if (!d.ops.length) lines.push("  (nothing after it: both sides send the same messages)");
  else pushAll(lines, opLines(d));
  const t = d.tokens;
  lines.push("", "tokens (per part: estimated, chars/4; context: as the agent counts it):", `  ${"part".padEnd(24)}${"A".padStart(10)}${"B".padStart(10)}${"B - A".padStart(10)}`);
  for (const k of TOKEN_KINDS) {
    const v = t.byKind[k];
    if (v) lines.push(row(k, v));
  }
  lines.push(row("all messages", t.messages));
  if (t.overhead) lines.push(row("unrecorded overhead", t.overhead));
  lines.push(row("context (agent's count)", t.total));
  if (compaction?.staleUsage) lines.push(`  (B's count and overhead still start from usage recorded before the compaction, at ${safeText(d.b.tokens.recordedAt ?? "")}: the agent's next step records the real size)`);
  return `${lines.join("\n")}\n`;
}
