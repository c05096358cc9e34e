import type { LlmOptions } from "../core/compaction/summarizer";

/** An error the CLI reports as one line on stderr with exit code 2. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = "CliError";
  }
}

export interface CliIO {
  /** Returns false when the writer wants `drained` awaited before more (as stream.write does). */
  out(text: string): unknown;
  drained?(): Promise<void>;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Test seam: retry policy, budgets and clock for the summary requests of compact and branch. */
  llm?: Pick<LlmOptions, "retry" | "budgets" | "clock" | "progressIntervalMs">;
}

export type CommandRunner = (args: string[], io: CliIO) => Promise<void>;

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run: CommandRunner;
}
