import { withArticle } from "../../core/util/human";
import { type OtherContextFormat, renderFormatContext } from "../../core/context/format-context";
import { resolveSystemPrompt } from "../../core/context/resolve-system";
import type { SessionReader } from "../../core/session/session-reader";
import { intFlag, onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { safeText } from "../format";
import { loadSession, reportProblems, requireEntry } from "../load";
import { STRATEGY_USAGE, strategyContext } from "./context-strategy";

const usage = `ase context <file> [--leaf ID] [--format native|pi|anthropic|xml|chain] [--system auto|FILE] [--max-tokens N] ${STRATEGY_USAGE}`;

/** The entries the agent loads for a leaf, `[{uuid, type}]` root first: the format's chain, else the tree's path. */
function entryChain(session: SessionReader, leaf: number): Array<{ uuid: string; type: string }> {
  const f = session.format;
  const positions = leaf < 0 ? [] : f.chain ? f.chain(session, leaf) : session.tree.path(leaf);
  return positions.map((i) => ({ uuid: session.table.idAt(i), type: session.table.typeAt(i) }));
}

/** `auto` rebuilds the agent's prompt from its files (labelled reconstructed on stderr); anything else is read as a file. */
function readSystem(spec: string | undefined, session: SessionReader, io: CliIO): string | undefined {
  if (spec === undefined) return undefined;
  try {
    const sp = resolveSystemPrompt(spec, session, io.env);
    if (sp.reconstructed) for (const n of [`system prompt RECONSTRUCTED (${session.format.agent} does not store it)`, ...sp.notes]) io.err(`note: ${safeText(n)}\n`);
    return sp.text;
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

export const contextCommand: CliCommand = {
  name: "context",
  usage,
  summary: "the exact context the agent sends for a leaf, as JSON (native: the agent's own messages); --strategy shrinks it as the agent would (seed-000: truncate, compress, smart; limit --max-tokens, default 180000), --dry-run shows which messages stay",
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      {
        leaf: { type: "string" },
        format: { type: "string" },
        system: { type: "string" },
        "max-tokens": { type: "string" },
        strategy: { type: "string" },
        "keep-recent": { type: "string" },
        "dry-run": { type: "boolean" },
        model: { type: "string" },
        timeout: { type: "string" },
      },
      usage,
    );
    const format = values.format ?? "native";
    if (!["native", "pi", "anthropic", "xml", "chain"].includes(format)) throw new CliError(`--format must be native, pi, anthropic, xml or chain, got "${format}"`);
    if (format === "chain" && Object.entries(values).some(([k, v]) => v !== undefined && !["leaf", "format"].includes(k))) throw new CliError("--format chain takes --leaf only");
    const maxTokens = intFlag(values["max-tokens"], "max-tokens");
    const strategy = values.strategy;
    if (strategy === undefined) {
      if (maxTokens !== undefined && format !== "xml") throw new CliError("--max-tokens applies to --format xml or --strategy only");
      for (const f of ["keep-recent", "dry-run", "model", "timeout"] as const) if (values[f] !== undefined) throw new CliError(`--${f} applies to --strategy only`);
    } else if (format !== "native") {
      throw new CliError(`--strategy prints the agent's own messages: use it with --format native (got ${format})`);
    }
    const keepRecent = intFlag(values["keep-recent"], "keep-recent");
    const loaded = await loadSession(onePositional(positionals, "session file", usage));
    const leaf = requireEntry(loaded, values.leaf, "leaf");
    if (format === "chain") {
      reportProblems(loaded, io.err);
      io.out(`${JSON.stringify(entryChain(loaded, leaf), null, 2)}\n`);
      return;
    }
    if (strategy !== undefined) {
      reportProblems(loaded, io.err);
      const flags = { strategy, keepRecent, maxTokens, dryRun: values["dry-run"], model: values.model, timeout: values.timeout };
      io.out(`${JSON.stringify(await strategyContext(loaded, leaf, flags, io), null, 2)}\n`);
      return;
    }
    const f = loaded.format;
    if (!f.contextRequest) {
      if (format === "pi") throw new CliError(`${loaded.path}: ${withArticle(f.agent)} session; --format pi is for pi sessions (use native)`);
      const system = readSystem(values.system, loaded, io);
      reportProblems(loaded, io.err);
      io.out(`${JSON.stringify(renderFormatContext(loaded, leaf, format as OtherContextFormat, { system, maxTokens }), null, 2)}\n`);
      return;
    }
    const system = readSystem(values.system, loaded, io);
    reportProblems(loaded, io.err);
    const { request, notes } = f.contextRequest(loaded, leaf, format as "native" | "pi" | "anthropic" | "xml", { system, maxTokens });
    for (const n of notes) io.err(`note: ${safeText(n)}\n`);
    io.out(`${JSON.stringify(request, null, 2)}\n`);
  },
};
