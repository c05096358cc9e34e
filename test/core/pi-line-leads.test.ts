import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { holdsFileCallMarker } from "../../src/core/formats/pi/file-call-markers";
import { KIND_ROLES, LEAD_KINDS, lineLeads, NO_IDS, REST_KEYS, SCAN_CAP, type LineLeads } from "../../src/core/formats/pi/line-leads";
import { LineWalker } from "../../src/core/store/json-walk";
import { emptyLead, HEX_ID, readPlainLead } from "../../src/core/formats/pi/plain-lead";
import { stringScan } from "../../src/core/store/json-string-scan";
import { stringEnd } from "../../src/core/store/json-valid";
import { LEAD_CAP } from "../../src/core/store/line-skim";
import { FIXTURE_DIR, needFixtures } from "../helpers/fixtures";
import { mutated, rng } from "../helpers/json-mutations";

const T = '"timestamp":"2026-01-01T00:00:00.000Z"';
const IDS = '"id":"a1b2c3d4","parentId":"0f9e8d7c"';
/** Lines as pi writes them, one of each kind the module reads, and some it leaves to JavaScript. */
const LINES = [
  `{"type":"message",${IDS},${T},"message":{"role":"assistant","content":[{"type":"text","text":"I will look."},{"type":"toolCall","id":"call_1","name":"bash","arguments":{"command":"ls -la"}}]}}`,
  `{"type":"message",${IDS},${T},"message":{"role":"assistant","content":[{"type":"toolCall","id":"call_2","name":"edit","arguments":{"path":"src/a.ts","oldText":"a","newText":"b"}}]}}`,
  `{"type":"message",${IDS},${T},"message":{"role":"user","content":[{"type":"text","text":"fix the \\"rpc\\" reader"}],"timestamp":1}}`,
  `{"type":"message",${IDS},${T},"message":{"role":"toolResult","toolCallId":"call_2","toolName":"edit","content":[{"type":"text","text":"done"}],"isError":false}}`,
  `{"type":"message",${T},"message":{"role":"toolResult","toolCallId":"toolu_01","toolName":"read","content":[{"type":"text","text":"x"}]}}`,
  `{"type":"message",${T},"message":{"role":"assistant","content":[{"type":"thinking","thinking":"a \\u0065dit"}]}}`,
  `{"type":"compaction",${IDS},${T},"summary":"s"}`,
  `{"type":"message",${IDS},${T},"message":{"role":"bashExecution","command":"ls"}}`,
];
/** The kinds of LINES, in order (the module must read each of pi's own leads). */
const KINDS = [LEAD_KINDS.ASSISTANT, LEAD_KINDS.ASSISTANT_MARKED, LEAD_KINDS.USER, LEAD_KINDS.TOOL_RESULT, LEAD_KINDS.TOOL_RESULT | NO_IDS, LEAD_KINDS.ASSISTANT_MARKED | NO_IDS, LEAD_KINDS.OTHER, LEAD_KINDS.OTHER];

/** Scans `bytes` (copied to the module's area) from its start: each record's line, kind, id and parent. */
function scanAll(leads: LineLeads, bytes: Buffer): { buf: Buffer; records: Array<{ start: number; end: number; kind: number; id: number; parent: number }> } {
  const area = leads.take();
  assert.ok(area, "the module's area is lent to another read");
  try {
    bytes.copy(area, 0);
    const buf = area.subarray(0, bytes.length);
    const records = [];
    let from = 0;
    for (;;) {
      const n = leads.scan(buf, from, buf.length);
      for (let k = 0; k < n; k++) {
        records.push({ start: leads.start(k), end: leads.end(k), kind: leads.kind(k), id: leads.id(k), parent: leads.parent(k) });
        from = leads.end(k) + 1;
      }
      if (n < SCAN_CAP) return { buf: Buffer.from(buf), records };
    }
  } finally {
    leads.give();
  }
}

/**
 * Holds every record of a scan of `bytes` to the JavaScript reads: its line is the next
 * line, and a kind other than OTHER is what readPlainLead reads of the lead and what
 * holdsFileCallMarker says of an assistant's line. How many leads it read.
 */
function agrees(leads: LineLeads, bytes: Buffer, what: string): number {
  const { buf, records } = scanAll(leads, bytes);
  const lead = emptyLead();
  let from = 0;
  let read = 0;
  for (const r of records) {
    const nl = buf.indexOf(10, from);
    assert.deepEqual([r.start, r.end], [from, nl], `${what}: the line after byte ${from}`);
    from = nl + 1;
    if (r.kind === LEAD_KINDS.OTHER) continue;
    read++;
    const line = buf.toString("latin1", r.start, r.end);
    const kind = r.kind & ~NO_IDS;
    assert.ok(readPlainLead(buf, r.start, r.end, lead), `${what}: readPlainLead takes ${line}`);
    assert.equal(lead.type, "message", line);
    assert.equal(lead.role, KIND_ROLES[kind], line);
    if (r.kind & NO_IDS) assert.deepEqual([lead.id, lead.idKey, lead.hasParentId, lead.parentKey], [undefined, -1, false, -1], line);
    else assert.deepEqual([lead.id, lead.idKey, lead.parentId, lead.parentKey], [HEX_ID, r.id, HEX_ID, r.parent], line);
    if (kind === LEAD_KINDS.ASSISTANT || kind === LEAD_KINDS.ASSISTANT_MARKED) assert.equal(kind === LEAD_KINDS.ASSISTANT_MARKED, holdsFileCallMarker(buf, r.start, r.end), `${what}: the marker of ${line}`);
  }
  assert.equal(buf.indexOf(10, from), -1, `${what}: a line was not recorded`);
  return read;
}

describe("pi's lines and their leads in WebAssembly SIMD (line-leads.ts)", () => {
  const leads = lineLeads();

  it("runs on WebAssembly SIMD here (the history's read falls back to JavaScript elsewhere)", () => {
    assert.ok(leads, "WebAssembly SIMD is not available on this Node");
  });

  it("reads the lead of each kind of line pi writes, its id and parent as numbers, and leaves the rest", () => {
    const { records } = scanAll(leads!, Buffer.from(`${LINES.join("\n")}\n`, "latin1"));
    assert.deepEqual(
      records.map((r) => r.kind),
      KINDS,
    );
    assert.deepEqual([records[0].id, records[0].parent], [0xa1b2c3d4, 0x0f9e8d7c]);
    assert.equal(agrees(leads!, Buffer.from(`${LINES.join("\n")}\n`, "latin1"), "pi's lines"), 6);
  });

  it("gives readPlainLead's and holdsFileCallMarker's answers on mutated lines, at every offset of the area", () => {
    const next = rng(44);
    const noise = ['"', "\\", "\\u0041", "u", "A", "F", "g", "0", " ", "\t", "é", "\u0001", "[", "{", "}", ",", ":", '"read"', '"edit"', "\\n", '"role":"user",', '","content":['];
    let read = 0;
    let other = 0;
    for (let k = 0; k < 400; k++) {
      const lines = [];
      for (let j = 0; j < 12; j++) lines.push(mutated(LINES[(k + j) % LINES.length], noise, next));
      // Lines start at every alignment of the 16-byte loads; the last is torn (no newline).
      const bytes = Buffer.from(`${" ".repeat(k % 17)}\n${lines.join("\n")}\n{"type":"message",${IDS}`, "utf8");
      const got = agrees(leads!, bytes, `case ${k}`);
      read += got;
      other += lines.length - got;
    }
    assert.ok(read > 500 && other > 1000, `${read} leads read, ${other} left`);
  });

  it("finds a marker at every place of an assistant's line, and none in the bytes after it", () => {
    const head = `{"type":"message",${IDS},${T},"message":{"role":"assistant","content":[`;
    for (const m of ['"read"', '"write"', '"edit"', "\\u"]) {
      for (let at = 0; at <= 40; at++) {
        const line = `${head}{"type":"text","text":"${"x".repeat(at)}${m === "\\u" ? "\\u0041" : m.replace(/"/g, '\\"')}"}]}}`;
        const plain = `${head}{"type":"toolCall","id":"c","name":${m === "\\u" ? '"\\u0062ash"' : m},"arguments":{}${" ".repeat(at)}}]}}`;
        const { records } = scanAll(leads!, Buffer.from(`${line}\n${plain}\n"read"\n`, "latin1"));
        // An escaped quote (\") is no marker's quote; \u always is.
        assert.equal(records[0].kind, m === "\\u" ? LEAD_KINDS.ASSISTANT_MARKED : LEAD_KINDS.ASSISTANT, line);
        assert.equal(records[1].kind, LEAD_KINDS.ASSISTANT_MARKED, plain);
      }
    }
    const cut = `${head}{"type":"text","text":"x"}]}}"rea`;
    assert.equal(scanAll(leads!, Buffer.from(`${cut}\nd"\n`, "latin1")).records[0].kind, LEAD_KINDS.ASSISTANT);
  });

  it("leaves a lead that ends past LEAD_CAP to JavaScript, as readPlainLead does", () => {
    const head = `{"type":"message",${IDS},${T},"message":{"role":"toolResult","toolCallId":"`;
    const tail = '","toolName":"read","content":[]}}';
    const seen = new Set<boolean>();
    for (let len = LEAD_CAP - head.length - tail.length - 8; len < LEAD_CAP - head.length - tail.length + 8; len++) {
      const line = `${head}${"c".repeat(len)}${tail}`;
      const { buf, records } = scanAll(leads!, Buffer.from(`${line}\n`, "latin1"));
      const plain = readPlainLead(buf, 0, line.length, emptyLead());
      assert.equal(records[0].kind !== LEAD_KINDS.OTHER, plain, `the content's [ at ${line.indexOf("[")}`);
      seen.add(plain);
    }
    assert.equal(seen.size, 2, "the lengths tried end the lead on both sides of LEAD_CAP");
  });

  it("scans on past the records one call writes, and records no line its chunk does not end", () => {
    const lines = Array.from({ length: 2 * SCAN_CAP + 5 }, (_, k) => (k % 3 ? "" : LINES[k % LINES.length]));
    const bytes = Buffer.from(`${lines.join("\n")}\n${LINES[1]}`, "latin1");
    const { records } = scanAll(leads!, bytes);
    assert.equal(records.length, lines.length);
    agrees(leads!, bytes, "many lines");
  });

  it("takes the rest of an assistant's line as pi writes it after the content, and nothing else: a walk that stops there gives a whole walk's places", () => {
    const next = rng(46);
    const walker = new LineWalker({ top: ["id", "parentId", "timestamp"], outer: "message", inner: [], list: "content", itemKey: "type", cutKeys: ["text", "oldText", "newText"], cutBytes: 64, limit: 512, restKeys: REST_KEYS });
    const head = `{"type":"message",${IDS},${T},"message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"edit","arguments":{"path":"a.ts","oldText":"${"o".repeat(70)}","newText":"n"}}]`;
    const rests = [
      ',"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-4-5","usage":{"input":1,"output":25,"cacheRead":51619,"cacheWrite":8587,"totalTokens":60232,"cost":{"input":0.000005,"output":0.000625,"cacheRead":0.0258095,"cacheWrite":0.05366875,"total":0.08010824999999999}},"stopReason":"toolUse","timestamp":1763682447849}}',
      ',"api":"a","provider":"p","model":"m","usage":{"input":0,"output":-1,"cacheRead":1e5,"cacheWrite":2.5E-3,"cost":{"input":0,"output":1.0,"cacheRead":-0.5e+2,"cacheWrite":9,"total":10}},"stopReason":"stop","timestamp":0}}',
    ];
    const noise = ["0", "1", "-", "+", ".", "e", "E", '"', "\\", "\\u0041", "}", "{", ",", ":", " ", "é", '"api":"x",', '"role":"user",', '"totalTokens":1,'];
    let taken = 0;
    let refused = 0;
    for (let k = 0; k < 1500; k++) {
      // pi's rests, with numbers and strings of every shape JSON allows (taken), and mutated ones.
      const num = () => ["0", "-0", "7", "-12", "3.25", "0.000005", "1e5", "2E-3", "-4.5e+2", "0.08010824999999999"][Math.floor(next() * 10)];
      const str = () => ["", "anthropic", "claude-opus-4-5", "a b", "~!@#$%^&*()"][Math.floor(next() * 5)];
      const fresh = rests[k % 2].replace(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g, num).replace(/"(anthropic-messages|anthropic|claude-opus-4-5|a|p|m)"/g, () => `"${str()}"`);
      const rest = k < 2 ? rests[k] : k % 2 ? mutated(rests[k % 2], noise, next) : fresh;
      // Sometimes a member the rest names comes before the content too: the rest must not be taken then.
      const line = k % 7 === 3 ? head.replace('"role":"assistant",', '"role":"assistant","model":"x",') + rest : head + rest;
      const bytes = Buffer.from(`${line}\n`, "utf8");
      const area = leads!.take()!;
      try {
        bytes.copy(area, 0);
        const buf = area.subarray(0, bytes.length);
        const end = bytes.length - 1;
        const isRest = leads!.rest(buf, Buffer.from(head).length, end);
        if (k < 2 || (k % 2 === 0 && k % 7 !== 3)) assert.ok(isRest, rest);
        if (isRest) {
          // What it takes is JSON that closes the line with pi's members.
          const parsed = JSON.parse(line) as { message: Record<string, unknown> };
          assert.deepEqual(Object.keys(parsed.message).slice(-6), REST_KEYS, rest);
          taken++;
        }
        const whole = walker.walk(buf, 0, end) ? JSON.stringify(walker.walked) : "refused";
        const short = walker.walk(buf, 0, end, leads!.rest) ? JSON.stringify(walker.walked) : "refused";
        assert.equal(short, whole, line);
        if (whole === "refused") refused++;
      } finally {
        leads!.give();
      }
    }
    assert.ok(taken > 500 && refused > 200, `${taken} rests taken, ${refused} lines refused`);
  });

  it("reads a prompt's one text alone where the rest of its line is as pi writes it, as JSON.parse of the line gives it, and nothing else", () => {
    const next = rng(47);
    const head = `{"type":"message",${IDS},${T},"message":{"role":"user","content":[`;
    const texts = ["Fix it", "", "  ", "café 😀 ➜", 'line\\none\\t\\"q\\" \\\\ \\/', "\\u0041\\u00e9\\ud83d\\ude00", "lone \\ud800", "x".repeat(300)];
    const noise = ['"', "\\", "\\u", "\\u12G4", "\\x", "\u0001", "\t", "é", "}", "]", ",", "0", "-", "e", '"text":"t",', '"type":"image",'];
    let taken = 0;
    let left = 0;
    for (let k = 0; k < 2000; k++) {
      const text = texts[k % texts.length];
      const rest = [`{"type":"text","text":"${text}"}],"timestamp":1763682447849}}`, `{"type":"text","text":"${text}"}]}}`][k % 2];
      const line = head + (k % 3 ? rest : mutated(rest, noise, next));
      const bytes = Buffer.from(`${line}\n`, "utf8");
      const area = leads!.take()!;
      try {
        bytes.copy(area, 0);
        const got = leads!.promptText(area.subarray(0, bytes.length), Buffer.byteLength(head), bytes.length - 1);
        if (k % 3) assert.notEqual(got, undefined, line);
        if (got === undefined) {
          left++;
          continue;
        }
        taken++;
        // The load parses the line's bytes (a mutation may have split a character's UTF-16 pair: those bytes read back otherwise).
        const parsed = JSON.parse(bytes.toString("utf8", 0, bytes.length - 1)) as { message: { content: unknown[] } };
        assert.deepEqual(parsed.message.content, [{ type: "text", text: got }], line);
        assert.deepEqual(Object.keys(parsed.message).filter((key) => key !== "timestamp"), ["role", "content"], line);
      } finally {
        leads!.give();
      }
    }
    assert.ok(taken > 1000 && left > 300, `${taken} texts read, ${left} lines left to the parse`);
  });

  it("scans the strings of a line where it lies in the area as the string scan does with its own copy", () => {
    const next = rng(48);
    const noise = ['"', "\\", "\\u00e9", "\\u12G4", "\\x", "\\n", "\u0001", "\t", "é", "😀", ":", ","];
    const own = stringScan()!;
    let strings = 0;
    for (let k = 0; k < 300; k++) {
      const line = mutated(`${LINES[k % LINES.length].slice(0, -2)},"pad":"${"x\\ty ".repeat(k % 40)}"}}`, noise, next);
      const bytes = Buffer.from(line, "utf8");
      const area = leads!.take()!;
      try {
        bytes.copy(area, k % 32);
        const [start, end] = [k % 32, (k % 32) + bytes.length];
        leads!.strings.load(area, start, end);
        own.load(area, start, end);
        for (let p = start; p < end; p++) {
          if (area[p] !== 0x22) continue;
          strings++;
          assert.equal(stringEnd(area, p, end, leads!.strings), stringEnd(area, p, end, own), `the string at ${p - start} of ${line}`);
        }
      } finally {
        leads!.give();
      }
    }
    assert.ok(strings > 5000, `${strings} strings`);
    assert.throws(() => leads!.strings.load(Buffer.from("{}"), 0, 2), /not in the module's memory/);
  });

  it("lends its area to one read at a time", () => {
    const area = leads!.take();
    assert.ok(area);
    assert.equal(leads!.take(), undefined);
    assert.throws(() => leads!.scan(Buffer.from("{}\n"), 0, 3), /not in the module's area/);
    leads!.give();
    assert.ok(leads!.take());
    leads!.give();
  });

  it("lends its area in turn: a read that asks while another has it gets it when that one gives it back, first asked first", async () => {
    const first = leads!.take();
    assert.ok(first);
    const got: string[] = [];
    const second = leads!.takeInTurn().then((a) => (got.push("second"), a));
    const third = leads!.takeInTurn().then((a) => (got.push("third"), a));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(got, [], "no one gets it while it is lent");
    leads!.give();
    assert.equal(await second, first);
    assert.deepEqual(got, ["second"]);
    assert.equal(leads!.take(), undefined, "handed on, not free");
    leads!.give();
    assert.equal(await third, first);
    leads!.give();
    assert.ok(leads!.take(), "free once every read gave it back");
    leads!.give();
  });

  it("agrees with the JavaScript reads on every line of the real pi sessions", function () {
    needFixtures(this);
    let read = 0;
    for (const f of readdirSync(FIXTURE_DIR).filter((n) => n.endsWith(".jsonl"))) read += agrees(leads!, readFileSync(join(FIXTURE_DIR, f)), f);
    assert.ok(read > 500, `${read} leads read`);
  });
});
