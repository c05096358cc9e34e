import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readTextFile } from "../../util/safe-open";
import { type Json, type OcMessage, type OcSessionRow, type OcStored, isObject, SAFE_ID } from "./records";

/**
 * OpenCode's JSON tree from before 1.2 (docs/opencode-format.md section 6):
 * storage/session/<projectID>/<sessionID>.json, storage/message/<sessionID>/<messageID>.json,
 * storage/part/<messageID>/<partID>.json. As OpenCode's own migration does, ids come from
 * the file names, not the JSON (earlier moves left stale ids in it).
 */

function readJson(path: string, problems: OcStored["problems"]): Json | undefined {
  try {
    const v = JSON.parse(readTextFile(path)) as unknown;
    if (isObject(v)) return v;
    problems.push({ line: 0, message: `${path}: not a JSON object` });
  } catch (err) {
    problems.push({ line: 0, message: `${path}: ${(err as Error).message}` });
  }
  return undefined;
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(".json") && SAFE_ID.test(n.slice(0, -5)))
      .sort();
  } catch {
    return [];
  }
}

const time = (v: unknown, key: string): number => (isObject(v) && typeof v[key] === "number" ? v[key] : Number.NaN);

/** A legacy session file's row. */
export function legacySessionRow(file: string, data: Json): OcSessionRow {
  return {
    id: basename(file, ".json"),
    parentId: typeof data.parentID === "string" ? data.parentID : null,
    directory: typeof data.directory === "string" ? data.directory : "",
    title: typeof data.title === "string" ? data.title : "",
    version: typeof data.version === "string" ? data.version : "",
    created: time(data.time, "created"),
    updated: time(data.time, "updated"),
    ...(isObject(data.revert) ? { revert: data.revert } : {}),
  };
}

/** The storage/ folder a legacy session file sits in. */
export const storageOf = (sessionFile: string): string => dirname(dirname(dirname(sessionFile)));

/** Every legacy session file under a data dir (storage/session/<project>/<id>.json). */
export function legacySessionFiles(dataDir: string): string[] {
  const root = join(dataDir, "storage", "session");
  let projects: string[];
  try {
    projects = readdirSync(root);
  } catch {
    return [];
  }
  return projects.flatMap((p) => jsonFiles(join(root, p)).map((n) => join(root, p, n)));
}

/** A legacy session's messages, counted by their files (the listing's entry count, as a database's rows are counted). */
export function legacyMessageCount(file: string): number {
  return jsonFiles(join(storageOf(file), "message", basename(file, ".json"))).length;
}

/**
 * A legacy session's first prompt for the listing: the first user message's first text part
 * that OpenCode did not add itself (synthetic), as a database session's is found. Messages are
 * taken in file-name order, which is time order (OpenCode's ids ascend), and the walk stops at
 * the first prompt found; a file that does not read is passed over (opening the session names it).
 */
export function legacyFirstPrompt(file: string): string {
  const storage = storageOf(file);
  const sessionId = basename(file, ".json");
  for (const name of jsonFiles(join(storage, "message", sessionId))) {
    const m = readJson(join(storage, "message", sessionId, name), []);
    if (m?.role !== "user") continue;
    const messageId = name.slice(0, -5);
    for (const pn of jsonFiles(join(storage, "part", messageId))) {
      const p = readJson(join(storage, "part", messageId, pn), []);
      if (p?.type === "text" && typeof p.text === "string" && !p.synthetic) return p.text;
    }
  }
  return "";
}

/** A legacy session with its messages and parts, or an error naming the file. */
export function readLegacySession(file: string): OcStored {
  const problems: OcStored["problems"] = [];
  const data = readJson(file, problems);
  if (!data) throw new Error(problems[0]?.message ?? `${file}: unreadable`);
  const session = legacySessionRow(file, data);
  const storage = storageOf(file);
  const messages: OcMessage[] = [];
  for (const name of jsonFiles(join(storage, "message", session.id))) {
    const id = name.slice(0, -5);
    const m = readJson(join(storage, "message", session.id, name), problems);
    if (!m) continue;
    const parts = jsonFiles(join(storage, "part", id)).flatMap((pn) => {
      const p = readJson(join(storage, "part", id, pn), problems);
      return p ? [{ id: pn.slice(0, -5), data: p }] : [];
    });
    messages.push({ id, created: time(m.time, "created"), data: m, parts });
  }
  messages.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const children = new Map<string, OcSessionRow>();
  for (const other of legacySessionFiles(dirname(storage))) {
    const d = readJson(other, []);
    if (d && d.parentID === session.id) children.set(basename(other, ".json"), legacySessionRow(other, d));
  }
  return { address: file, session, messages, children, problems };
}
