import { randomBytes, randomUUID } from "node:crypto";

/** A fresh 8-hex-char entry id not in `taken` (pi's format). */
export function newEntryId(taken: { has(id: string): boolean }): string {
  for (let i = 0; i < 100; i++) {
    const id = randomBytes(4).toString("hex");
    if (!taken.has(id)) return id;
  }
  return randomUUID();
}

export function newSessionId(): string {
  return randomUUID();
}

/** pi's session file name: ISO time with ':' and '.' as '-', then the session uuid. */
export function sessionFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
