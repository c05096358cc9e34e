import type { EntryMeta } from "../../src/core/store/entry-meta";
import type { Session } from "../../src/core/formats/pi/pi-session";
import { assistant, entry, header, type Raw, toolResult, user } from "./session-builder";

/** Every field of an index record, as plain data to compare. */
const FIELDS: Array<keyof EntryMeta> = [
  "id", "parentId", "type", "role", "timestamp", "time", "line", "offset", "length", "preview", "estimate", "usage", "stopReason",
  "provider", "model", "thinkingLevel", "targetId", "label", "name", "firstKeptEntryId", "firstKeptEntryIndex", "tokensBefore",
  "hasRetainedTail", "fromId", "emptySummary", "excluded", "toolCalls",
];

export function record(m: EntryMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = m[f];
  return out;
}

/** Everything a load gives, so one and two threads can be compared whole. */
export function picture(s: Session) {
  return {
    header: s.header,
    version: s.version,
    size: s.size,
    endsWithNewline: s.endsWithNewline,
    records: s.metas.map(record),
    problems: s.problems,
    problemCount: s.problemCount,
    leaves: s.tree.leaves().map((i) => s.metas[i].id),
  };
}

/** A long chain with branches, labels and a compaction, spread over both halves. */
export function chain(n: number): Raw[] {
  const lines: Raw[] = [header()];
  let prev: string | null = null;
  for (let k = 0; k < n; k++) {
    const u = `u${k}`;
    const a = `a${k}`;
    const t = `t${k}`;
    lines.push(user(u, prev, `question ${k} ${"é".repeat(k % 7)}`));
    lines.push(assistant(a, u, `answer ${k}`, { toolCalls: [{ id: `c${k}`, name: "read", arguments: { path: `f${k}.ts` } }] }));
    lines.push(toolResult(t, a, `c${k}`, "read", `contents ${k}`, k % 5 === 0));
    if (k % 10 === 3) lines.push(user(`b${k}`, u, "a branch off the question"));
    if (k % 10 === 7) lines.push(entry("label", `l${k}`, t, { targetId: u, label: `mark ${k}` }));
    prev = k % 10 === 7 ? `l${k}` : t;
  }
  lines.push(entry("compaction", "cmp", prev, { summary: "so far", firstKeptEntryId: `u${n - 2}`, tokensBefore: 1234 }));
  lines.push(user("last", "cmp", "after the compaction"));
  return lines;
}
