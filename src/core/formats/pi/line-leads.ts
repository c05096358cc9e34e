/**
 * pi's lines found, and the leads of the message lines pi writes most, read in WebAssembly
 * SIMD a chunk of the file at a time: the history's read of a pi file (file-ops-read.ts)
 * spent a fifth of its time finding each line's end and reading its lead byte by byte in
 * JavaScript (~0.5 us a line on the bench's sessions, most of them a tool's result it then
 * skips). The file's bytes are read straight into this module's memory (`area`), so nothing
 * is copied; `scan` writes a record per line.
 *
 * A record says where a line is and what kind of lead it has: one of LEAD_KINDS only when
 * the line begins exactly as pi writes such a line, byte for byte up to its content's `[`:
 *
 *   {"type":"message","id":"<8 hex>","parentId":"<8 hex>","timestamp":"<plain>","message":{"role":
 *   (or, NO_IDS: {"type":"message","timestamp":"<plain>","message":{"role":)
 *     "assistant","content":[                                    ASSISTANT, or ASSISTANT_MARKED
 *     "user","content":[                                         USER
 *     "toolResult","toolCallId":"<plain>","toolName":"<plain>","content":[    TOOL_RESULT
 *
 * (hex: lowercase, as entry-ids.ts reads pi's ids; plain: printable ASCII without an escape,
 * as plain-lead.ts reads strings), and within LEAD_CAP bytes. Such a lead is read by
 * readPlainLead as: type "message", that role, the id and parent as their numbers; the
 * record gives those. An assistant's line is ASSISTANT_MARKED when it holds one of
 * file-call-markers.ts's markers anywhere (holdsFileCallMarker's answer). Any other line is
 * OTHER, left to the JavaScript read. test/core/pi-line-leads.test.ts holds every record to
 * readPlainLead's and holdsFileCallMarker's answers.
 *
 * Hand-assembled (util/wasm-simd.ts); beside json-string-scan.ts's `stop` (stringScanIn:
 * a walk of a line in the area scans its strings there, with no copy of the line), the functions are
 *
 *   scan(lo, hi, out, cap) -> n: the lines of mem[lo, hi) that end in a newline before hi,
 *   from lo on, at most cap of them: a record of six i32 for each at out (start, end of
 *   the line before its newline, kind, id, parent, the lead's end: id and parent as
 *   unsigned, the lead's end just past its content's `[` for a kind other than OTHER). The
 *   SLACK bytes after hi may be read and are not used.
 *
 *   rest(p, end) -> 1 when mem[p, end) is exactly the rest of an assistant's line as pi
 *   writes it after its content's `]` (REST), else 0: its strings plain, its numbers JSON's.
 *   A walk of the line (json-walk.ts) then stops at the content's end: the rest is JSON,
 *   closes the line, and names no member the walk looks for or has seen (LineLeads.rest).
 *
 *   prompt(p, end, out) -> the closing quote of the text of a prompt's line whose lead ends
 *   at p, when the rest of the line is one text block and the message's time as pi writes
 *   them (PROMPT_TEXT, PROMPT_REST; the text any JSON string, checked as JSON.parse checks
 *   it), else 0; at out, whether the text has an escape or a byte past ASCII (how
 *   LineLeads.promptText decodes it).
 */import { STOP_FUNCTION, stringScanIn, type StringScan } from "../../store/json-string-scan";
import { LEAD_CAP } from "../../store/line-skim";
import {
  BITMASK, BLOCK, END, EQ, GET, I32_ADD, I32_CONST, I32_CTZ, I32_EQ, I32_EQZ, I32_GE_S, I32_GE_U, I32_GT_S,
  I32_MUL, I32_OR, I32_STORE, I32_SUB, I32_AND, I32_LOAD8_U, LOOP, RETURN, SET, SIMD, SPLAT, TEE, UNREACHABLE, V128_LOAD, compiledLazily, simdFunctions, sleb,
} from "../../util/wasm-simd";
import { Asm } from "../../util/wasm-asm";
import { digestInMemory, LANES_FUNCTION } from "../../util/lane-digest";
import { FILE_TOOLS } from "./file-tools";
import { markerBits, markerVectors } from "./file-call-markers";
import { AT, BITS, bytes, C, CAP_, FLAGS, hex, holds, ID, K, KIND, LEAD_END, literal, LO, LOCALS, HI, NEXT, NL, OUT, P, PAR, plainString, Q, S, step, TEXT_ESCAPED, TEXT_PAST_ASCII, VECTORS, VNL } from "./lead-asm";
import { PROMPT_TEXT, promptBody, REST_KEYS, restBody } from "./line-rests";

export { REST_KEYS };

/** What a record says of its line's lead (see the comment above); with NO_IDS set for a lead without an id and a parent (pi's version 1). */
export const LEAD_KINDS = { OTHER: 0, TOOL_RESULT: 1, ASSISTANT: 2, USER: 3, ASSISTANT_MARKED: 4 } as const;
export const NO_IDS = 8;

/** The role each kind's lead gives (OTHER: none). */
export const KIND_ROLES = [undefined, "toolResult", "assistant", "user", "assistant"] as const;

/** Records a scan writes at most. */
const CAP = 4096;
const RECORD = 6;
/** Where prompt() writes what it found of a text (TEXT_ESCAPED, TEXT_PAST_ASCII): after the records. */
const FLAGS_AT = CAP * RECORD * 4;
/** Where lane-digest.ts's `lanes` writes its four lanes: after the flags. */
const LANES_AT = FLAGS_AT + 16;
/** Where the file's bytes go in the memory, and how many fit: a small file whole (file-ops-read.ts reads up to 4 MiB at once), or two chunks and their rooms. */
const DATA_AT = 2 * 65536;
export const AREA_BYTES = 4 * 2 ** 20 + 65536;
/** Bytes past a scan's end the module may read (vector loads near a line's end): a reader leaves this much between two parts of the area it scans apart. */
export const SLACK = 64;
const PAGES = Math.ceil((DATA_AT + AREA_BYTES + SLACK) / 65536);
/** KIND set to `kind` with the lead's FLAGS. */
const setKind = (a: Asm, kind: number) => a.op(I32_CONST, kind, GET, FLAGS, I32_OR, SET, KIND);

/** The lead's kind is `kind` if it ends (p just past its `[`) within LEAD_CAP bytes of the line's start; else to `fail`. */
function within(a: Asm, kind: number, fail: string): void {
  a.op(GET, P, GET, S, I32_SUB, I32_CONST, ...sleb(LEAD_CAP), I32_GT_S).brIf(fail);
  setKind(a, kind);
}

const TYPE_ID = bytes('{"type":"message","id":"');
const TYPE_TIME = bytes('{"type":"message","timestamp":"');
const PARENT = bytes('","parentId":"');
const TIME = bytes('","timestamp":"');
const ROLE = bytes('","message":{"role":"');
const ASSISTANT = bytes('assistant","content":[');
const USER = bytes('user","content":[');
const TOOL_RESULT = bytes('toolResult","toolCallId":"');
const TOOL_NAME = bytes('","toolName":"');
const CONTENT = bytes('","content":[');
const NAMES = FILE_TOOLS.map((n) => bytes(`"${n}"`));
if (NAMES.some((n) => n.length > 16)) throw new Error("line-leads: a file tool's name is longer than a vector");

/** For an assistant's line: ASSISTANT_MARKED when mem[s, nl) holds a marker, else ASSISTANT. */
function markers(a: Asm): void {
  a.op(GET, S, SET, Q);
  a.nest(BLOCK, "marked", () => {
    a.nest(BLOCK, "none", () =>
      a.nest(LOOP, "sixteen", () => {
        a.op(GET, Q, GET, NL, I32_GE_U).brIf("none");
        a.op(...markerBits(Q, AT, NEXT, VECTORS), SET, BITS);
        a.nest(BLOCK, "next", () =>
          a.nest(LOOP, "pair", () => {
            a.op(GET, BITS, I32_EQZ).brIf("next");
            a.op(GET, Q, GET, BITS, I32_CTZ, I32_ADD, TEE, C, GET, NL, I32_GE_U).brIf("none");
            // A backslash's pair is `\u`; a quote's is a marker when a whole name follows.
            a.op(GET, C, I32_LOAD8_U, 0, 0, I32_CONST, ...sleb(0x5c), I32_EQ).brIf("marked");
            for (const n of NAMES) {
              holds(a, C, n);
              a.brIf("marked");
            }
            a.op(GET, BITS, GET, BITS, I32_CONST, 1, I32_SUB, I32_AND, SET, BITS).br("pair");
          }),
        );
        a.op(GET, Q, I32_CONST, 16, I32_ADD, SET, Q).br("sixteen");
      }),
    );
    setKind(a, LEAD_KINDS.ASSISTANT).br("kind");
  });
  setKind(a, LEAD_KINDS.ASSISTANT_MARKED).br("kind");
}

/** KIND, ID and PAR of the line [s, nl). */
function classify(a: Asm): void {
  a.nest(BLOCK, "kind", () => {
    a.nest(BLOCK, "fail", () => {
      a.op(I32_CONST, 0, SET, FLAGS);
      // p at the time's first byte, after an id and a parent or (NO_IDS) after the type.
      a.nest(BLOCK, "time", () => {
        a.nest(BLOCK, "noIds", () => {
          literal(a, S, 0, TYPE_ID, "noIds");
          hex(a, TYPE_ID.length, ID, "fail");
          literal(a, S, TYPE_ID.length + 8, PARENT, "fail");
          hex(a, TYPE_ID.length + 8 + PARENT.length, PAR, "fail");
          const time = TYPE_ID.length + 16 + PARENT.length;
          literal(a, S, time, TIME, "fail");
          a.op(GET, S, I32_CONST, ...sleb(time + TIME.length), I32_ADD, SET, P).br("time");
        });
        literal(a, S, 0, TYPE_TIME, "fail");
        a.op(I32_CONST, NO_IDS, SET, FLAGS, GET, S, I32_CONST, ...sleb(TYPE_TIME.length), I32_ADD, SET, P);
      });
      plainString(a, "fail");
      literal(a, P, 0, ROLE, "fail");
      step(a, ROLE.length);
      a.nest(BLOCK, "notAssistant", () => {
        literal(a, P, 0, ASSISTANT, "notAssistant");
        step(a, ASSISTANT.length);
        within(a, LEAD_KINDS.ASSISTANT, "fail");
        markers(a);
      });
      a.nest(BLOCK, "notUser", () => {
        literal(a, P, 0, USER, "notUser");
        step(a, USER.length);
        within(a, LEAD_KINDS.USER, "fail");
        a.br("kind");
      });
      literal(a, P, 0, TOOL_RESULT, "fail");
      step(a, TOOL_RESULT.length);
      plainString(a, "fail");
      literal(a, P, 0, TOOL_NAME, "fail");
      step(a, TOOL_NAME.length);
      plainString(a, "fail");
      literal(a, P, 0, CONTENT, "fail");
      step(a, CONTENT.length);
      within(a, LEAD_KINDS.TOOL_RESULT, "fail");
      a.br("kind");
    });
    a.op(I32_CONST, LEAD_KINDS.OTHER, SET, KIND);
  });
}

function body(): number[] {
  const a = new Asm();
  a.op(I32_CONST, 10, SIMD, SPLAT, SET, VNL, ...markerVectors(VECTORS));
  a.op(GET, LO, SET, S);
  a.nest(LOOP, "lines", () => {
    a.op(GET, K, GET, CAP_, I32_GE_S).then(() => a.op(GET, K, RETURN));
    // The line's end: the first newline from s on, 16 bytes at a time.
    a.op(GET, S, SET, P);
    a.nest(BLOCK, "found", () =>
      a.nest(LOOP, "sixteen", () => {
        a.op(GET, P, GET, HI, I32_GE_S).then(() => a.op(GET, K, RETURN));
        a.op(GET, P, SIMD, V128_LOAD, 0, 0, GET, VNL, SIMD, EQ, SIMD, BITMASK, TEE, BITS);
        a.then(() => a.op(GET, P, GET, BITS, I32_CTZ, I32_ADD, SET, NL).br("found"));
        a.op(GET, P, I32_CONST, 16, I32_ADD, SET, P).br("sixteen");
      }),
    );
    a.op(GET, NL, GET, HI, I32_GE_S).then(() => a.op(GET, K, RETURN));
    a.op(I32_CONST, 0, SET, ID, I32_CONST, 0, SET, PAR);
    classify(a);
    a.op(GET, P, SET, LEAD_END);
    a.op(GET, OUT, GET, K, I32_CONST, RECORD * 4, I32_MUL, I32_ADD, SET, P);
    a.op(GET, P, GET, S, I32_STORE, 2, 0);
    a.op(GET, P, GET, NL, I32_STORE, 2, 4);
    a.op(GET, P, GET, KIND, I32_STORE, 2, 8);
    a.op(GET, P, GET, ID, I32_STORE, 2, 12);
    a.op(GET, P, GET, PAR, I32_STORE, 2, 16);
    a.op(GET, P, GET, LEAD_END, I32_STORE, 2, 20);
    a.op(GET, K, I32_CONST, 1, I32_ADD, SET, K);
    a.op(GET, NL, I32_CONST, 1, I32_ADD, SET, S).br("lines");
  });
  a.op(UNREACHABLE, END);
  return a.code;
}

const MODULE = compiledLazily(
  simdFunctions(
    [
      { name: "scan", params: 4, locals: LOCALS, body: body() },
      { name: "rest", params: 4, locals: LOCALS, body: restBody() },
      { name: "prompt", params: 4, locals: LOCALS, body: promptBody() },
      STOP_FUNCTION,
      LANES_FUNCTION,
    ],
    PAGES,
  ),
);

/** One thread's module: its memory's area for a file's bytes, lent to one read at a time, and the records of a scan. */
export class LineLeads {
  /** Where the file's bytes go (AREA_BYTES): a read takes it, and gives it back. */
  private readonly area: Buffer;
  private readonly records: Int32Array;
  private readonly ids: Uint32Array;
  private readonly run: (lo: number, hi: number, out: number, cap: number) => number;
  private lent = false;
  /** The memory's bytes: a Buffer whose `buffer` is this is in the area. */
  private readonly memory: ArrayBuffer;

  constructor(exports: Record<string, unknown>) {
    this.memory = (exports.mem as { buffer: ArrayBuffer }).buffer;
    this.area = Buffer.from(this.memory, DATA_AT, AREA_BYTES);
    this.records = new Int32Array(this.memory, 0, CAP * RECORD);
    this.ids = new Uint32Array(this.memory, 0, CAP * RECORD);
    this.run = exports.scan as LineLeads["run"];
    const rest = exports.rest as LineLeads["run"];
    this.promptRun = exports.prompt as LineLeads["run"];
    this.strings = stringScanIn(exports.stop as (p: number, end: number) => number, (buf) => this.holds(buf));
    this.textFlags = new Int32Array(this.memory, FLAGS_AT, 1);
    this.rest = (buf, p, end) => this.holds(buf) && rest(buf.byteOffset + p, buf.byteOffset + end, 0, 0) === 1;
    // An edit's text in a line read here is digested here too (history/edit-texts.ts places it so).
    digestInMemory(this.memory, exports.lanes as (p: number, end: number, out: number) => number, LANES_AT);
  }

  /** The string scan (json-string-scan.ts) of a line in the area, where it is: for the walk of an assistant's line. */
  readonly strings: StringScan;

  /** Whether buf[p, end) is the rest of an assistant's line as pi writes it after its content (REST); false for bytes not in the area. */
  readonly rest: (buf: Uint8Array, p: number, end: number) => boolean;

  /**
   * The text of a prompt's line (in the area) whose lead ended at `p`, when the rest of the
   * line is as pi writes a prompt of one text (PROMPT_TEXT, PROMPT_REST): the text as
   * JSON.parse gives it; undefined for any other rest (the line is parsed).
   */
  promptText(buf: Buffer, p: number, end: number): string | undefined {
    const q = this.promptRun(buf.byteOffset + p, buf.byteOffset + end, FLAGS_AT, 0) - buf.byteOffset;
    if (q <= 0) return undefined;
    const from = p + PROMPT_TEXT.length;
    const flags = this.textFlags[0];
    if (flags & TEXT_ESCAPED) return JSON.parse(buf.toString("utf8", from - 1, q + 1)) as string;
    return flags & TEXT_PAST_ASCII ? buf.toString("utf8", from, q) : buf.toString("latin1", from, q);
  }

  private readonly promptRun: (lo: number, hi: number, out: number, cap: number) => number;
  private readonly textFlags: Int32Array;

  /** The area, for one read at a time: undefined while another read has it. */
  take(): Buffer | undefined {
    if (this.lent) return undefined;
    this.lent = true;
    return this.area;
  }

  /**
   * The area, once the reads that asked before have given it back: a thread's reads take
   * turns with it (one read without it went the slow way, in JavaScript: a tenth of the
   * history thread's time where an early read and its share overlapped).
   */
  takeInTurn(): Promise<Buffer> {
    const area = this.take();
    return area ? Promise.resolve(area) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private readonly waiting: Array<(area: Buffer) => void> = [];

  /** The area given back: to the read waiting longest, if any. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next(this.area);
    else this.lent = false;
  }

  /** Whether buf's bytes are in the area (a part of it taken). */
  holds(buf: Uint8Array): boolean {
    return buf.buffer === this.memory;
  }

  /** Scans the lines of buf[lo, hi) (buf in the area): how many records it wrote (CAP at most: scan on from the last one's end). */
  scan(buf: Buffer, lo: number, hi: number): number {
    if (!this.holds(buf) || hi > buf.length) throw new Error("LineLeads.scan: the bytes are not in the module's area");
    this.shift = buf.byteOffset;
    return this.run(this.shift + lo, this.shift + hi, 0, CAP);
  }

  /** buf's position 0 in the memory, as of the last scan. */
  private shift = 0;

  start(k: number): number {
    return this.records[RECORD * k] - this.shift;
  }

  end(k: number): number {
    return this.records[RECORD * k + 1] - this.shift;
  }

  kind(k: number): number {
    return this.records[RECORD * k + 2];
  }

  id(k: number): number {
    return this.ids[RECORD * k + 3];
  }

  parent(k: number): number {
    return this.ids[RECORD * k + 4];
  }

  /** Where the lead of a line of a kind other than OTHER ends: just past its content's `[`. */
  leadEnd(k: number): number {
    return this.records[RECORD * k + 5] - this.shift;
  }
}

/** Records a scan writes at most (a caller scans on when it got this many). */
export const SCAN_CAP = CAP;

let made: LineLeads | null | undefined;

/** This thread's LineLeads (made at the first call), or undefined where WebAssembly SIMD is not there. */
export function lineLeads(): LineLeads | undefined {
  if (made === undefined) {
    const exports = MODULE.instance();
    made = exports ? new LineLeads(exports) : null;
  }
  return made ?? undefined;
}
