import { readTextFile } from "../util/safe-open";

/** Where a part of a system prompt came from: a file the agent reads, or the one the user named. */
export type SystemPromptSource = "context-file" | "system-file" | "append-file" | "user-file";

export interface SystemPromptPart {
  source: SystemPromptSource;
  path: string;
  text: string;
}

export interface SystemPrompt {
  /** true: rebuilt from files (label it "reconstructed" wherever shown); false: a file the user named. */
  reconstructed: boolean;
  text: string;
  parts: SystemPromptPart[];
  /** What the text leaves out or assumes, for display beside it. */
  notes: string[];
}

/** A system prompt the user names: used as is. Throws with the path when unreadable. */
export function systemPromptFromFile(path: string): SystemPrompt {
  const text = readTextFile(path);
  return { reconstructed: false, text, parts: [{ source: "user-file", path, text }], notes: [] };
}

/** `--system FILE`: the file as the prompt, or a one-line error naming it. */
export function systemPromptFile(spec: string): SystemPrompt {
  try {
    return systemPromptFromFile(spec);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`--system ${spec}: cannot read: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (err as Error).message}`);
  }
}
