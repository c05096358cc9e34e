import { type Json, type OcEntry, type OcStored, isObject } from "./records";

/**
 * The entries of a session: each part in order (messages by time then id, parts by id),
 * chained one after another. A tool part that has a result gives a second entry for it,
 * so the call and its output are rows of their own. A pending revert (session.revert)
 * marks the message it names and everything after it (from `partID` on, when set) as
 * reverted: OpenCode deletes them at the next prompt (docs/opencode-format.md section 4.1).
 */

const resultStatuses = new Set(["completed", "error", "pending", "running"]);

export function buildEntries(stored: OcStored): OcEntry[] {
  const out: OcEntry[] = [];
  const revert = stored.session.revert;
  const cutMessage = isObject(revert) && typeof revert.messageID === "string" ? revert.messageID : undefined;
  const cutPart = isObject(revert) && typeof revert.partID === "string" ? revert.partID : undefined;
  let reverting = false;
  let prev = null as string | null;
  const push = (e: Omit<OcEntry, "parentId">) => {
    out.push({ ...e, parentId: prev, ...(reverting ? { reverted: true } : {}) } as OcEntry);
    prev = String(e.id);
  };
  for (const m of stored.messages) {
    if (m.id === cutMessage && !cutPart) reverting = true;
    const role = typeof m.data.role === "string" ? m.data.role : "unknown";
    const base = { messageId: m.id, role, message: m.data };
    if (!m.parts.length) {
      push({ id: m.id, type: "message", time: m.created, ...base });
      continue;
    }
    for (const p of m.parts) {
      if (m.id === cutMessage && p.id === cutPart) reverting = true;
      const part: Json = { ...p.data, id: p.id };
      const type = typeof p.data.type === "string" ? p.data.type : "unknown";
      const t = partTime(p.data) ?? m.created;
      push({ id: p.id, type, time: t, ...base, part });
      const state = isObject(p.data.state) ? p.data.state : undefined;
      if (type === "tool" && state && typeof state.status === "string" && resultStatuses.has(state.status)) {
        push({ id: `${p.id}:result`, type: "tool-result", time: endTime(state) ?? t, ...base, part });
      }
    }
  }
  return out;
}

function partTime(d: Json): number | undefined {
  const t = isObject(d.time) ? d.time : isObject(d.state) && isObject(d.state.time) ? d.state.time : undefined;
  return t && typeof t.start === "number" ? t.start : undefined;
}

function endTime(state: Json): number | undefined {
  const t = isObject(state.time) ? state.time : undefined;
  return t && typeof t.end === "number" ? t.end : undefined;
}
