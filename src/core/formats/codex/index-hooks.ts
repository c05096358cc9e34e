import { createHash } from "node:crypto";
import type { EntryTable } from "../../store/entry-table";
import { charsToTokens } from "../../tokens/estimate";
import { CodedColumn, partValue } from "../../util/coded-column";
import { parseIsoTime } from "../../util/iso-time";
import type { HeaderHooks, IndexedEntry, IndexHooks, IndexPosition, RangeHandOver } from "../../store/index-hooks";
import { kindOf, PREVIEW_READS, previewOf } from "../../session/line-text";
import { summarizeToolCall } from "../../session/tool-summary";
import { putUsageFigures } from "../../tokens/usage-figures";
import { asObj, type CodexLine, contentText, contentTextHead, contentTextLength, MESSAGE_ITEM, payloadOf, promptOf, str } from "./lines";
import { codexFromLead } from "./line-lead";
import { type CodexRangeState, emptyNotes, type RangeNotes, TURN_END, TURN_PROMPT, TURN_START, type TurnOp } from "./range-state";

/** Item types only a model response writes (a message is one when its role is assistant). */
const MODEL_OUTPUT = new Set(["reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "image_generation_call", "tool_search_call"]);

/**
 * An entry's id: `o<ordinal>` where the line has one (0.169.0 numbers every line of a
 * thread, forks continuing their parent's numbers), else a hash of the line (older builds
 * write no ordinal; a copied-parent fork rewrites timestamps, so copies differ).
 */
export function codexEntryId(e: Record<string, unknown>): string {
  const o = e.ordinal;
  // Not `o${o}`: V8 keeps every number it turns into a string in a cache of its own, so each
  // entry's digits outlived the young generation (~4 MB promoted in a 100 MB load, enough to
  // double that generation); JSON.stringify writes the same digits without the cache.
  if (typeof o === "number" && Number.isInteger(o) && o >= 0) return `o${JSON.stringify(o)}`;
  return `h${createHash("sha1").update(JSON.stringify(e)).digest("hex").slice(0, 16)}`;
}

/** A function call's arguments (a JSON string) as an object, when they parse and are not huge. */
export function callInput(args: unknown): unknown {
  if (typeof args !== "string") return args;
  if (args.length > 1_000_000) return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return { arguments: args.slice(0, 200) };
  }
}

/** What a history item does, on one line, tool calls through the neutral summarizer (a message: the head previewOf reads, not all of it). */
function itemPreview(p: Record<string, unknown>, cwd: string | undefined): string {
  switch (p.type) {
    case "message":
      return contentTextHead(p.content, PREVIEW_READS);
    case "reasoning": {
      const summary = Array.isArray(p.summary) ? p.summary.map((s) => str(asObj(s)?.text) ?? "").join(" ") : "";
      return `(reasoning) ${summary || (p.encrypted_content ? "(encrypted)" : "")}`;
    }
    case "function_call":
      return summarizeToolCall(p.name, callInput(p.arguments), cwd);
    case "custom_tool_call":
      return summarizeToolCall(p.name, { input: p.input }, cwd);
    case "local_shell_call":
      return summarizeToolCall("shell", { command: (asObj(p.action)?.command as unknown[] | undefined)?.join?.(" ") }, cwd);
    case "function_call_output":
    case "custom_tool_call_output":
      return typeof p.output === "string" ? p.output : contentText(p.output) || JSON.stringify(p.output ?? "");
    case "web_search_call":
      return `Search the web: ${str(asObj(p.action)?.query) ?? ""}`;
    default:
      return `(${String(p.type ?? "unknown item")})`;
  }
}

/** The row text of a line (event_msg and bookkeeping lines say what they are), for previewOf: a long text may stop at its head. */
function previewText(l: CodexLine, cwd: string | undefined): string {
  const p = payloadOf(l);
  switch (l.type) {
    case "response_item":
      return itemPreview(p, cwd);
    case "compacted":
      return `compacted: ${str(p.message) ?? ""}`;
    case "turn_context":
      return `model ${str(p.model) ?? "?"}`;
    case "event_msg":
      if (p.type === "task_complete" && p.error !== undefined && p.error !== null) return `turn failed: ${str(asObj(p.error)?.message) ?? JSON.stringify(p.error)}`;
      if (p.type === "turn_aborted") return `turn aborted (${str(p.reason) ?? "?"})`;
      if (p.type === "thread_rolled_back") return `rolled back ${String(p.num_turns ?? "?")} turn(s)`;
      return String(p.type ?? "event");
    default:
      return String(l.type ?? "");
  }
}

/** chars/4 of what a history item adds to the context; other lines add nothing. */
function estimateOf(l: CodexLine): number {
  if (l.type !== "response_item") return 0;
  const p = payloadOf(l);
  let chars = 0;
  if (p.type === MESSAGE_ITEM) chars = contentTextLength(p.content);
  else if (p.type === "reasoning") chars = JSON.stringify(p.summary ?? "").length + (typeof p.encrypted_content === "string" ? p.encrypted_content.length * 0.75 : 0);
  else chars = JSON.stringify(p).length;
  return charsToTokens(chars);
}

/** The role the index keeps: a message's role, else the item's or event's own type. */
function roleOf(l: CodexLine): string {
  const p = payloadOf(l);
  if (l.type === "response_item") return str(p.role) ?? str(p.type) ?? "unknown";
  if (l.type === "event_msg") return str(p.type) ?? "event";
  return String(l.type ?? "unknown");
}

/**
 * The line scanner's view of a Codex rollout (docs/codex-format.md 2-5). The first line,
 * `session_meta`, is the header; every other line is an entry, in one chain (a rollout is
 * a linear log), except that a `thread_rolled_back` line (older builds) hangs under the
 * entry before the turns it dropped, so they read as an abandoned branch. Usage is kept
 * once per model response, on `token_usage_record` lines (never on `token_count`, which
 * repeats it). State (turns, model, cwd) is per file: `load` makes hooks per session. A
 * large file is split across two threads: the second half's hooks note what hangs on the
 * lines before it (range-state.ts), and the first half's hooks settle it when they adopt it.
 */
export class CodexIndexHooks implements IndexHooks {
  readonly formatId = "codex";
  readonly agent = "Codex";
  readonly fromLead = codexFromLead;
  private cwd: string | undefined;
  private model: string | undefined;
  /** Per real prompt so far: the entry before it (the parent a rollback of that turn returns to). */
  private turns: Array<string | null> = [];
  /** Whether usage comes from token_usage_record lines (0.169.0); until one is seen, from token_count. */
  private sawRecord = false;
  /** The last token_count's cumulative total: a token_count repeating it reports no new response. */
  private lastTotal: string | undefined;
  private turnId: string | undefined;
  /** The entry before the current turn's first line, until its prompt is read. */
  private turnStart: string | null | undefined;
  /** The turn each entry belongs to, by position (a copied-parent fork marks the parent's turns by these). */
  readonly turnOf = new CodedColumn();
  /** The model response each entry came from (its items and its token_usage_record), by position. */
  readonly responseOf = new CodedColumn();
  /** Model output items read since the last usage record: the next record names their response. */
  private pending: number[] = [];
  /** [entry, window] each time the recorded model_context_window changes, in file order. */
  readonly windows: Array<[number, number]> = [];
  /** Set while these hooks read a range from the middle of a file (a worker thread's half). */
  private range: RangeNotes | undefined;

  /** The window recorded last at or before entry i. */
  windowAt(i: number): number | undefined {
    let found: number | undefined;
    for (const [at, win] of this.windows) {
      if (at > i) break;
      found = win;
    }
    return found;
  }

  readonly header: HeaderHooks = {
    accept: (obj, lineNo) => {
      const e = asObj(obj);
      if (!e || e.type !== "session_meta") return `line ${lineNo}: expected a "session_meta" line first, found ${e ? `a line of type ${kindOf(e.type) === "a string" ? JSON.stringify(String(e.type).slice(0, 40)) : kindOf(e.type)}` : kindOf(obj)}`;
      this.cwd = str(payloadOf(e).cwd);
      return { version: 0 };
    },
    missing: (hadBad, lines) => (hadBad ? `no session_meta line in ${lines} line(s) (none parsed as one)` : "no session_meta line"),
    isRepeat: () => false,
    positional: () => false,
    splittable: () => true,
  };

  /** Where a turn starts and ends, and the prompt that opens it: what a rollback returns to. */
  private turnEvent(op: TurnOp, prevId: string | null): void {
    if (op === TURN_START) this.turnStart ??= prevId;
    else if (op === TURN_END) this.turnStart = undefined;
    else {
      this.turns.push(this.turnStart === undefined ? prevId : this.turnStart);
      this.turnStart = undefined;
    }
  }

  startRange(header: Record<string, unknown> | undefined): void {
    this.cwd = header ? str(payloadOf(header as CodexLine).cwd) : undefined;
    this.range = emptyNotes();
  }

  handOverRange(): RangeHandOver {
    const r = this.range ?? emptyNotes();
    if (r.onePass) return { onePass: r.onePass };
    const state: CodexRangeState = { ...r, sawRecord: this.sawRecord, lastTotal: this.lastTotal, model: this.model, turnId: this.turnId, count: this.turnOf.length, turns: this.turnOf.part(), responses: this.responseOf.part(), pending: this.pending, windows: this.windows };
    return { state };
  }

  /** Settles what the range after ours left open (range-state.ts), as if these hooks had read on. */
  adoptRange(t: EntryTable, base: number, state: unknown): void {
    const r = state as CodexRangeState;
    const lastBefore = base > 0 ? t.idAt(base - 1) : null;
    // The range's first line could not see the entry before it (a rollout is one chain).
    if (t.count > base) t.setParent(base, lastBefore);
    for (const op of r.turnOps) {
      const k = base + Math.floor(op / 4);
      this.turnEvent((op % 4) as TurnOp, k > 0 ? t.idAt(k - 1) : null);
    }
    if (this.model) for (const k of r.modelless) t.setModel(base + k, this.model);
    if (!this.sawRecord) {
      r.deferred.forEach(([k, u, model], n) => {
        if (n === 0 && r.firstTotal === this.lastTotal) return;
        if (u) this.putUsage(t, base + k, u, model ?? this.model);
      });
      this.lastTotal = r.lastTotal ?? this.lastTotal;
    }
    this.sawRecord ||= r.sawRecord;
    this.model = r.model ?? this.model;
    for (let k = 0; k < r.count; k++) this.turnOf.set(base + k, partValue(r.turns, k) ?? this.turnId);
    this.turnId = r.turnId ?? this.turnId;
    for (let k = 0; k < r.responses.codes.length; k++) {
      const rid = partValue(r.responses, k);
      if (rid !== undefined) this.responseOf.set(base + k, rid);
    }
    if (r.firstRid !== undefined) {
      for (const k of this.pending) this.responseOf.set(k, r.firstRid);
      this.pending = [];
    }
    for (const k of r.pending) this.pending.push(base + k);
    for (const [k, win] of r.windows) if (win !== this.windows[this.windows.length - 1]?.[1]) this.windows.push([base + k, win]);
  }

  identify(e: Record<string, unknown>, lineNo: number, at: IndexPosition): IndexedEntry | string | null {
    if (typeof e.type !== "string" || !e.type) return `a Codex line needs a string "type"; found ${kindOf(e.type)} (line skipped)`;
    const l = e as CodexLine;
    const id = codexEntryId(e);
    let parentId = at.prevId;
    // A turn starts at its turn_context (or task_started): a rollback drops it from there.
    const event = l.type === "event_msg" ? payloadOf(l).type : undefined;
    const op = l.type === "turn_context" || event === "task_started" || event === "turn_started" ? TURN_START : event === "task_complete" || event === "turn_complete" || event === "turn_aborted" ? TURN_END : promptOf(l) !== undefined ? TURN_PROMPT : undefined;
    if (op !== undefined) {
      // A range read on its own cannot know the turns before it: noted, replayed at adoption.
      if (this.range) this.range.turnOps.push(this.range.at * 4 + op);
      else this.turnEvent(op, at.prevId);
    }
    if (event === "thread_rolled_back") {
      const n = payloadOf(l).num_turns;
      if (this.range) this.range.onePass ??= `line ${lineNo} of the range rolls back turns it cannot see`;
      else if (typeof n === "number" && n > 0 && Number.isInteger(n) && n <= this.turns.length) {
        parentId = this.turns[this.turns.length - n];
        this.turns.length -= n;
      }
    }
    if (l.type === "turn_context") this.model = str(payloadOf(l).model) ?? this.model;
    if (this.range) this.range.at++;
    const time = typeof e.timestamp === "string" ? parseIsoTime(e.timestamp) : Number.NaN;
    return { id, parentId, type: e.type, time, preview: previewOf(previewText(l, this.cwd)), estimate: estimateOf(l) };
  }

  fill(t: EntryTable, i: number, e: Record<string, unknown>): void {
    const l = e as CodexLine;
    t.setRole(i, roleOf(l));
    const p = payloadOf(l);
    if (l.type === "response_item" && (p.type === "function_call" || p.type === "custom_tool_call" || p.type === "local_shell_call")) t.toolCalls[i] = 1;
    if (l.type === "turn_context" && str(p.model)) t.setModel(i, p.model as string);
    // 0.169.0's task_started names its turn in turn_attribution; older builds at the top.
    const turn = l.type === "turn_context" || (l.type === "event_msg" && (p.type === "task_started" || p.type === "turn_started")) ? (str(p.turn_id) ?? str(asObj(p.turn_attribution)?.turn_id)) : undefined;
    if (turn) this.turnId = turn;
    this.turnOf.set(i, this.turnId);
    // The window is recorded by task_started and token_count (docs/codex-format.md section 7), no other event.
    const win = l.type === "event_msg" ? (p.type === "task_started" ? p.model_context_window : p.type === "token_count" ? asObj(p.info)?.model_context_window : undefined) : undefined;
    if (typeof win === "number" && Number.isInteger(win) && win > 0 && win !== this.windows[this.windows.length - 1]?.[1]) this.windows.push([i, win]);
    this.linkResponse(i, l, p);
    const u = this.usageOf(i, l, p);
    if (!u) return;
    if (this.range && !this.model) this.range.modelless.push(i);
    this.putUsage(t, i, u, this.model);
  }

  private putUsage(t: EntryTable, i: number, u: Record<string, unknown>, model: string | undefined): void {
    if (model) t.setModel(i, model);
    const input = u.input_tokens;
    const cached = u.cached_input_tokens;
    // cached_input_tokens is part of input_tokens (section 7): the index keeps them apart.
    const fresh = typeof input === "number" && typeof cached === "number" && cached <= input ? input - cached : input;
    putUsageFigures(t, i, {
      input: ["usage.input_tokens - usage.cached_input_tokens", fresh],
      output: ["usage.output_tokens", u.output_tokens],
      cacheRead: ["usage.cached_input_tokens", cached],
      total: ["usage.total_tokens", u.total_tokens],
    });
  }

  /**
   * Items a model response wrote carry no response id; the token_usage_record written after
   * them does: it names the response of every model output item since the last record.
   */
  private linkResponse(i: number, l: CodexLine, p: Record<string, unknown>): void {
    if (l.type === "response_item" && (p.role === "assistant" || MODEL_OUTPUT.has(String(p.type)))) this.pending.push(i);
    const rid = l.type === "token_usage_record" ? str(p.response_id) : undefined;
    if (!rid) return;
    for (const k of this.pending) this.responseOf.set(k, rid);
    this.responseOf.set(i, rid);
    if (this.range) this.range.firstRid ??= rid;
    this.pending = [];
  }

  /**
   * The usage of one model response on this line, if it carries one: a token_usage_record's
   * `usage`; in files without those (older builds), a token_count's `last_token_usage`
   * when its cumulative total moved (Codex writes token_count again without a new
   * response: at turn start after a resume, around a compaction). Never both sources.
   */
  private usageOf(i: number, l: CodexLine, p: Record<string, unknown>): Record<string, unknown> | undefined {
    if (l.type === "token_usage_record") {
      this.sawRecord = true;
      return asObj(p.usage);
    }
    if (this.sawRecord || l.type !== "event_msg" || p.type !== "token_count") return undefined;
    const info = asObj(p.info);
    const total = JSON.stringify(info?.total_token_usage ?? null);
    if (!info || total === "null" || total === this.lastTotal) return undefined;
    this.lastTotal = total;
    if (this.range) {
      // Whether a record came before the range, and the total before it, the first half knows.
      if (!this.range.deferred.length) this.range.firstTotal = total;
      this.range.deferred.push([i, asObj(info.last_token_usage), this.model]);
      return undefined;
    }
    return asObj(info.last_token_usage);
  }

  idOf(e: Record<string, unknown>): unknown {
    return codexEntryId(e);
  }
}

/** Hooks for code that only needs the line view (search, a worker): per-session state starts empty. */
export const codexIndexHooks = new CodexIndexHooks();

