import { rng } from "./random-session";

/**
 * Copies of a pi-written session as real files get them: damaged (a bad line, a torn
 * last line, CRLF line ends, blank lines) and in pi's older shapes (version 1: no ids,
 * compactions pointing by index; version 2: custom messages with the hookMessage role).
 * Each is text for a new file; the source file is never touched.
 */
export interface Variant {
  name: string;
  text: string;
  /** Version 1: entries get their ids when loaded, so entries are matched by position. */
  byPosition?: boolean;
}

type Obj = Record<string, unknown>;

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.length > 0);
}

export function damaged(text: string, seed: number): Variant[] {
  const r = rng(seed ^ 0x5eed);
  const ls = lines(text);
  const at = (n: number) => 1 + Math.floor(r() * (n - 1));
  const bad = [...ls];
  // A line that is not JSON at all, and one cut short, somewhere after the header.
  bad[at(bad.length)] = "this is not json {";
  bad[at(bad.length)] = bad[at(bad.length)].slice(0, 25);
  const last = ls[ls.length - 1];
  const torn = `${ls.slice(0, -1).join("\n")}\n${last.slice(0, Math.max(1, Math.floor(last.length / 2)))}`;
  const blank: string[] = [];
  for (const l of ls) {
    blank.push(l);
    if (r() < 0.2) blank.push(["", "   ", "\t", " \r"][Math.floor(r() * 4)]);
  }
  return [
    { name: "bad lines", text: `${bad.join("\n")}\n` },
    { name: "torn last line", text: torn },
    { name: "CRLF line ends", text: `${ls.join("\r\n")}\r\n` },
    { name: "blank lines", text: `\n${blank.join("\n")}\n\n` },
  ];
}

/** Version 2: the same tree, custom messages as `message` entries with role hookMessage. */
export function version2(text: string): Variant {
  const out = lines(text).map((l) => {
    const e = JSON.parse(l) as Obj;
    if (e.type === "session") return { ...e, version: 2 };
    if (e.type === "custom_message") {
      const { customType, content, display, details, timestamp } = e;
      return { type: "message", id: e.id, parentId: e.parentId, timestamp, message: { role: "hookMessage", customType, content, display, details, timestamp: Date.parse(String(timestamp)) } };
    }
    return e;
  });
  return { name: "version 2", text: `${out.map((e) => JSON.stringify(e)).join("\n")}\n` };
}

/**
 * Version 1: one path of the tree as a plain list, no ids or parents; a compaction's
 * first kept entry becomes its index among the parsed lines (the header is 0), now and
 * then pointing at the header or past the end; hookMessage roles; sometimes a bad line.
 */
export function version1(header: Obj, path: Obj[], seed: number): Variant {
  const r = rng(seed ^ 0x1111);
  const withBadLine = r() < 0.5;
  const badAt = 1 + Math.floor(r() * Math.max(1, path.length));
  const index = new Map<string, number>();
  path.forEach((e, k) => index.set(String(e.id), k + 1));
  const out: string[] = [JSON.stringify({ type: "session", id: header.id, timestamp: header.timestamp, cwd: header.cwd })];
  path.forEach((e, k) => {
    if (withBadLine && k + 1 === badAt) out.push('{"type":"message","message":');
    const { id: _id, parentId: _parentId, ...rest } = e;
    const v1: Obj = { ...rest };
    if (e.type === "compaction") {
      delete v1.firstKeptEntryId;
      const roll = r();
      const i = index.get(String(e.firstKeptEntryId));
      v1.firstKeptEntryIndex = roll < 0.1 ? 0 : roll < 0.2 ? path.length + 5 : (i ?? 1);
    }
    if (e.type === "custom_message" && r() < 0.5) {
      const { customType, content, display, details, timestamp } = e;
      Object.assign(v1, { type: "message", message: { role: "hookMessage", customType, content, display, details, timestamp: Date.parse(String(timestamp)) } });
      for (const k of ["customType", "content", "display", "details"]) delete v1[k];
    }
    out.push(JSON.stringify(v1));
  });
  return { name: `version 1${withBadLine ? " with a bad line" : ""}`, text: `${out.join("\n")}\n`, byPosition: true };
}
