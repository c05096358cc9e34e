import { strict as assert } from "node:assert";
import { cutNumber, LineCutter } from "../../src/core/store/cut-parse";

const KEYS = ["text", "oldText", "newText", "content"];
const long = (s: string) => s.repeat(40);

/** The parsed value with every mark replaced by the text its literal decodes to (what the cut line stands for). */
function restored(cutter: LineCutter, line: string): unknown {
  const buf = Buffer.from(`xx${line}yy`);
  const got = cutter.parse(buf, 2, buf.length - 2, true);
  assert.ok(got, line);
  const count = got.cuts.length / 2;
  const back = (v: unknown): unknown => {
    if (typeof v === "string") {
      const k = cutNumber(v, count);
      return k < 0 ? v : JSON.parse(buf.toString("utf8", got.cuts[2 * k], got.cuts[2 * k + 1]));
    }
    if (Array.isArray(v)) return v.map(back);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, back(x)]));
    return v;
  };
  return back(got.value);
}

/** Whether JSON.parse refuses the text. */
function refused(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

describe("a line parsed with its long texts cut out (LineCutter)", () => {
  const cutter = new LineCutter(KEYS, 16);

  it("cuts the long values of its keys only, and the literals it hands back decode to them", () => {
    const value = {
      type: "message",
      message: { role: "assistant", content: [{ type: "text", text: long("Some words, \"quoted\" and \\ slashed\n") }, { type: "toolCall", name: "edit", arguments: { path: long("p/"), oldText: long("a\tb"), newText: "short" } }] },
      other: long("not a cut key"),
    };
    const line = JSON.stringify(value);
    const buf = Buffer.from(line);
    const got = cutter.parse(buf, 0, buf.length, false);
    assert.ok(got);
    // text and oldText cut; the short newText, the path and the other key's value not.
    assert.equal(got.cuts.length, 4);
    const v = got.value as typeof value;
    assert.equal(cutNumber(v.message.content[0].text as string, 2), 0);
    assert.equal(cutNumber(v.message.content[1].arguments!.oldText as string, 2), 1);
    assert.equal(v.message.content[1].arguments!.newText, "short");
    assert.equal(v.message.content[1].arguments!.path, long("p/"));
    assert.equal(v.other, long("not a cut key"));
    assert.equal(buf.toString("utf8", got.cuts[2], got.cuts[3]), JSON.stringify(long("a\tb")));
    assert.deepEqual(restored(cutter, line), value);
  });

  it("answers as JSON.parse on lines that try to fool it: keys inside strings, escaped quotes, backslash runs, unicode, marks of its own", () => {
    const lines = [
      // A key's pattern inside a string, with its quotes escaped: not a key.
      JSON.stringify({ a: long('say "text":"no"'), text: long("yes") }),
      // Backslash runs right before a key's quote.
      `{"a":"x\\\\","text":"${long("y")}"}`,
      `{"a":"x\\\\\\"","text":"${long("z")}"}`,
      // Escapes of every kind in a cut text, and characters past ASCII.
      JSON.stringify({ text: long("\u00e9\u{1f600}\\/\b\f\r\u0001\u001f") }),
      `{"text":"${long("\\u00e9\\/")}"}`,
      // A line holding the mark's own escape: parsed whole, nothing cut.
      JSON.stringify({ text: long("\u0000zero"), b: "\u00001" }),
      // Spaces around the colon: not cut (the pattern is pi's compact form), same value.
      `{"text" : "${long("w")}", "content":"${long("c")}"}`,
      // A key repeated: JSON keeps the last.
      `{"text":"${long("first")}","text":"${long("second")}"}`,
      // Keys that only end or begin like a cut key.
      `{"mytext":"${long("m")}","textual":"${long("t")}"}`,
      // Arrays of strings and a value that is no string.
      `{"content":[${JSON.stringify(long("x"))}],"text":12,"newText":null}`,
    ];
    for (const line of lines) assert.deepEqual(restored(cutter, line), JSON.parse(line), line);
    const marked = JSON.stringify({ text: long("\u0000zero"), b: "\u00001" });
    const buf = Buffer.from(marked);
    assert.deepEqual(cutter.parse(buf, 0, buf.length, false)?.cuts, []);
  });

  it("refuses exactly what JSON.parse refuses, a bad cut text included", () => {
    const bad = [
      `{"text":"${long("a")}\u0001"}`,
      `{"text":"${long("a")}\\x"}`,
      `{"text":"${long("a")}\\u12G4"}`,
      `{"text":"${long("a")}`,
      `{"text":"${long("a")}"`,
      `{"text":"${long("a")}",}`,
      `{"a":"open "text":"${long("a")}"}`,
      `{"text":"${long("a")}" "b":1}`,
    ];
    for (const line of bad) {
      assert.ok(refused(line), `JSON.parse takes ${line}`);
      const buf = Buffer.from(line);
      assert.throws(() => cutter.parse(buf, 0, buf.length, false), SyntaxError, line);
    }
  });

  it("says a line nested too deep is so, its texts cut or not", () => {
    const deep = `${"[".repeat(600)}{"text":"${long("a")}"}${"]".repeat(600)}`;
    const buf = Buffer.from(deep);
    assert.equal(cutter.parse(buf, 0, buf.length, true), undefined);
    assert.ok(cutter.parse(buf, 0, buf.length, false));
  });

  it("takes keys of plain letters only, and reads no mark in a string of the line's own", () => {
    assert.throws(() => new LineCutter(['a"b'], 16), /plain letters/);
    assert.equal(cutNumber("plain", 3), -1);
    assert.equal(cutNumber("\u00003", 3), -1);
    assert.equal(cutNumber("\u000001", 3), -1);
    assert.equal(cutNumber("\u00002", 3), 2);
  });
});
