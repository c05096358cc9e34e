import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectHash } from "../../../src/core/formats/gemini-cli/store-files";

/** Small hand-built Gemini CLI records (docs/gemini-cli-format.md section 2), for tests only. */
export type Rec = Record<string, unknown>;

export const SESSION_ID = "0a1b2c3d-0000-4000-8000-000000000001";

export function meta(root: string, extra: Rec = {}): Rec {
  return { sessionId: SESSION_ID, projectHash: projectHash(root), startTime: "2026-11-26T06:00:00.000Z", lastUpdated: "2026-11-26T06:00:00.000Z", kind: "main", ...extra };
}

export function userMsg(id: string, text: string, extra: Rec = {}): Rec {
  return { id, timestamp: "2026-11-26T06:00:01.000Z", type: "user", content: [{ text }], ...extra };
}

export function geminiMsg(id: string, text: string, extra: Rec = {}): Rec {
  return { id, timestamp: "2026-11-26T06:00:02.000Z", type: "gemini", content: text, model: "gemini-2.5-pro", ...extra };
}

export function contextMsg(): Rec {
  return userMsg("d04923d38bb0f6017037e74183378ef4", "<session_context>\nThis is the Gemini CLI.\n</session_context>");
}

/** A tool call entry as Gemini stores it in a gemini message's toolCalls. */
export function toolCall(name: string, n: number, args: Rec, output: string, status = "success"): Rec {
  const id = `${name}__${name}_1_${n}`;
  return { id, name, args, status, timestamp: "2026-11-26T06:00:03.000Z", result: [{ functionResponse: { id, name, response: status === "error" ? { error: output } : { output } } }] };
}

export function lines(records: Array<Rec | string>): string {
  return records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";
}

/** A store under home/.gemini with one project; returns the chats folder. */
export function store(home: string, root: string, slug = "project"): string {
  const chats = join(home, ".gemini", "tmp", slug, "chats");
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(home, ".gemini", "projects.json"), JSON.stringify({ projects: { [root]: slug } }));
  writeFileSync(join(home, ".gemini", "tmp", slug, ".project_root"), root);
  return chats;
}

/** Bytes JSON.parse is given while `fn` runs (how much of a file a read parsed), and what `fn` returned. */
export function parsing<T>(fn: () => T): { bytes: number; got: T } {
  const parse = JSON.parse;
  let bytes = 0;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    bytes += text.length;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const got = fn();
    return { bytes, got };
  } finally {
    JSON.parse = parse;
  }
}
