import { type CliCommand, CliError, type CliIO } from "./cli-error";
import { branchCommand } from "./commands/branch";
import { compactCommand } from "./commands/compact";
import { contextCommand } from "./commands/context";
import { costCommand } from "./commands/cost";
import { diffCommand } from "./commands/diff";
import { exportCommand } from "./commands/export";
import { filesCommand } from "./commands/files";
import { forkCommand } from "./commands/fork";
import { historyCommand } from "./commands/history";
import { listCommand } from "./commands/list";
import { mcpCommand } from "./commands/mcp";
import { searchCommand } from "./commands/search";
import { tokensCommand } from "./commands/tokens";
import { treeCommand } from "./commands/tree";
import { FORMATS } from "../core/formats/registry";
import { visibleText } from "../core/util/visible-text";

const commands: CliCommand[] = [listCommand, searchCommand, treeCommand, contextCommand, filesCommand, historyCommand, forkCommand, tokensCommand, costCommand, compactCommand, branchCommand, diffCommand, exportCommand, mcpCommand];

function help(): string {
  const lines = commands.map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `ase: look inside coding-agent sessions (${FORMATS.map((f) => f.agent).join(", ")})\n\nCommands:\n${lines.join("\n")}\n`;
}

/** Commands whose stdout is always exact data (JSON), like every command's --json. */
const EXACT_OUTPUT = new Set(["context"]);

/**
 * Runs the CLI; returns the exit code. Errors go to stderr as one line, nothing to stdout.
 * Whatever reaches the terminal as text (stderr, and stdout unless it is JSON) passes
 * through visibleText as a last guard: the commands mark session text field by field
 * (line breaks included), this catches any field they missed. JSON stays exact data.
 */
export async function main(argv: string[], rawIo: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  const io: CliIO = { ...rawIo, err: (t) => rawIo.err(visibleText(t, "keep")) };
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.out(help());
    return name ? 0 : 2;
  }
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    io.err(`ase: unknown command "${name}" (commands: ${commands.map((c) => c.name).join(", ")})\n`);
    return 2;
  }
  // Buffer stdout so a failing command prints nothing there.
  const chunks: string[] = [];
  const exact = EXACT_OUTPUT.has(cmd.name) || rest.includes("--json");
  try {
    await cmd.run(rest, { ...io, out: (t) => chunks.push(exact ? t : visibleText(t, "keep")) });
  } catch (err) {
    const code = err instanceof CliError ? err.exitCode : 1;
    // One line: a message that quotes session text escapes its line breaks.
    const msg = visibleText((err as Error).message.split("\n")[0]);
    io.err(`ase ${name}: ${msg}\n`);
    return code;
  }
  await flush(chunks, io);
  return 0;
}

/** Output goes out in blocks of about this many chars (see flush). */
export const OUT_BLOCK = 1 << 20;

/**
 * Writes the buffered output in large blocks, waiting whenever stdout asks to. A
 * million small writes queued on a pipe to a slower reader (`ase tree big.jsonl |
 * less`) made Node hand the kernel one giant writev, which failed with ENOBUFS.
 */
async function flush(chunks: string[], io: CliIO): Promise<void> {
  let block = "";
  for (const c of chunks) {
    block += c;
    if (block.length < OUT_BLOCK) continue;
    if (io.out(block) === false) await io.drained?.();
    block = "";
  }
  if (block && io.out(block) === false) await io.drained?.();
}

if (require.main === module) {
  // `ase ... | head` closes the pipe early; that is not an error.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
  main(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    drained: () => new Promise((resolve) => process.stdout.once("drain", resolve)),
    err: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`ase: ${(err as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
