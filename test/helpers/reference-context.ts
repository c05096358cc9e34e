import { readFileSync } from "node:fs";

/**
 * A deliberately naive second implementation of pi's context rules, written straight
 * from docs/session-format.md: parse the whole file into objects, migrate like pi, walk
 * the path, convert. The indexed builder must agree with it for every leaf.
 */
type Obj = Record<string, any>;

export interface RefSession {
  entries: Obj[];
  byId: Map<string, Obj>;
}

export function refLoad(path: string): RefSession {
  return refParse(readFileSync(path, "utf8"));
}

/** The same naive reading of a session's JSONL text held in memory. */
export function refParse(text: string): RefSession {
  const parsed: Obj[] = [];
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    if (!lines[n].trim()) continue;
    try {
      const o = JSON.parse(lines[n]);
      if (o && typeof o === "object" && !Array.isArray(o)) parsed.push({ ...o, __line: n + 1 });
    } catch {
      /* skipped, as pi does */
    }
  }
  const header = parsed[0];
  const version = header.version ?? 1;
  if (version < 2) {
    let prev: string | null = null;
    for (const e of parsed) {
      if (e.type === "session") continue;
      e.id = e.__line.toString(16).padStart(8, "0");
      e.parentId = prev;
      prev = e.id;
    }
    for (const e of parsed) {
      if (e.type === "compaction" && typeof e.firstKeptEntryIndex === "number") {
        const t = parsed[e.firstKeptEntryIndex];
        if (t && t.type !== "session") e.firstKeptEntryId = t.id;
      }
    }
  }
  if (version < 3) for (const e of parsed) if (e.type === "message" && e.message?.role === "hookMessage") e.message.role = "custom";
  const entries = parsed.filter((e) => e.type !== "session" && typeof e.id === "string");
  const byId = new Map<string, Obj>();
  for (const e of entries) byId.set(e.id, e);
  return { entries, byId };
}

function text(t: string, timestamp: unknown): Obj {
  return { role: "user", content: [{ type: "text", text: t }], timestamp };
}

function convert(m: Obj): Obj | undefined {
  switch (m.role) {
    case "bashExecution": {
      if (m.excludeFromContext) return undefined;
      let t = `Ran \`${m.command}\`\n` + (m.output ? "```\n" + m.output + "\n```" : "(no output)");
      if (m.cancelled) t += "\n\n(command cancelled)";
      else if (m.exitCode != null && m.exitCode !== 0) t += `\n\nCommand exited with code ${m.exitCode}`;
      if (m.truncated && m.fullOutputPath) t += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
      return text(t, m.timestamp);
    }
    case "custom":
      return { role: "user", content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content, timestamp: m.timestamp };
    case "branchSummary":
      return text(`The following is a summary of a branch that this conversation came back from:\n\n<summary>\n${m.summary}</summary>`, m.timestamp);
    case "compactionSummary":
      return text(`The conversation history before this point was compacted into the following summary:\n\n<summary>\n${m.summary}\n</summary>`, m.timestamp);
    case "user":
    case "assistant":
    case "toolResult":
      return m;
    default:
      return undefined;
  }
}

export function refContext(s: RefSession, leafId?: string): { messages: Obj[]; thinkingLevel: string; model: Obj | null } {
  const leaf = leafId ? s.byId.get(leafId) : s.entries[s.entries.length - 1];
  const path: Obj[] = [];
  const seen = new Set<Obj>();
  for (let cur = leaf; cur && !seen.has(cur); cur = cur.parentId ? s.byId.get(cur.parentId) : undefined) {
    seen.add(cur);
    path.unshift(cur);
  }
  let thinkingLevel = "off";
  let model: Obj | null = null;
  let compaction: Obj | undefined;
  for (const e of path) {
    if (e.type === "thinking_level_change") thinkingLevel = e.thinkingLevel;
    else if (e.type === "model_change") model = { provider: e.provider, modelId: e.modelId };
    else if (e.type === "message" && e.message.role === "assistant") model = { provider: e.message.provider, modelId: e.message.model };
    else if (e.type === "compaction") compaction = e;
  }
  const out: Obj[] = [];
  const ms = (t: string) => new Date(t).getTime();
  const add = (e: Obj) => {
    let m: Obj | undefined;
    if (e.type === "message") m = e.message;
    else if (e.type === "custom_message") m = { role: "custom", customType: e.customType, content: e.content, display: e.display, details: e.details, timestamp: ms(e.timestamp) };
    else if (e.type === "branch_summary" && e.summary) m = { role: "branchSummary", summary: e.summary, fromId: e.fromId, timestamp: ms(e.timestamp) };
    const c = m && convert(m);
    if (c) out.push(c);
  };
  if (!compaction) path.forEach(add);
  else {
    out.push(convert({ role: "compactionSummary", summary: compaction.summary, timestamp: ms(compaction.timestamp) }) as Obj);
    const ci = path.indexOf(compaction);
    if (Array.isArray(compaction.retainedTail)) {
      for (const m of compaction.retainedTail) {
        const c = convert(m);
        if (c) out.push(c);
      }
    } else {
      let found = false;
      for (let i = 0; i < ci; i++) {
        if (path[i].id === compaction.firstKeptEntryId) found = true;
        if (found) add(path[i]);
      }
    }
    for (let i = ci + 1; i < path.length; i++) add(path[i]);
  }
  return { messages: out, thinkingLevel, model };
}
