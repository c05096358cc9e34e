import { strict as assert } from "node:assert";
import { clipText, hasHiddenText, visibleText } from "../../src/core/util/visible-text";

describe("visibleText: hidden characters shown as marks", () => {
  it("bidi controls, zero-width characters, BOM, LS/PS and tag characters are marked", () => {
    assert.equal(visibleText("invoice\u202Efdp.exe"), "invoice⟨U+202E⟩fdp.exe");
    const bidi = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"];
    for (const c of bidi) assert.equal(visibleText(`a${c}b`), `a⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩b`);
    assert.equal(visibleText("a\u200Bb\u200Cc\u200Dd\uFEFFe"), "a⟨U+200B⟩b⟨U+200C⟩c⟨U+200D⟩d⟨U+FEFF⟩e");
    assert.equal(visibleText("one\u2028two\u2029"), "one⟨U+2028⟩two⟨U+2029⟩");
    assert.equal(visibleText("x\u{E0041}\u{E0042}y"), "x⟨U+E0041⟩⟨U+E0042⟩y");
  });

  it("controls: ESC, NUL, DEL and C1 are marked; line breaks escaped in one-line views, kept in multi-line ones", () => {
    assert.equal(visibleText("\u001b[31mred\u001b[0m"), "⟨U+001B⟩[31mred⟨U+001B⟩[0m");
    assert.equal(visibleText("a\u0000b\u007fc\u0085d\u009be"), "a⟨U+0000⟩b⟨U+007F⟩c⟨U+0085⟩d⟨U+009B⟩e");
    assert.equal(visibleText("line 1\nline 2\r\n\tx\ry"), "line 1\\nline 2\\r\\n\\tx\\ry");
    assert.equal(visibleText("line 1\nline 2\r\n\tx\ry", "keep"), "line 1\nline 2\r\n\tx⟨U+000D⟩y");
    assert.equal(visibleText("\u001b]8;;http://evil\u0007osc", "keep"), "⟨U+001B⟩]8;;http://evil⟨U+0007⟩osc");
  });

  it("lone surrogates are marked; pairs, emoji and ZWJ emoji sequences stay as they are", () => {
    assert.equal(visibleText("a\uD800b"), "a⟨U+D800⟩b");
    assert.equal(visibleText("a\uDC00b"), "a⟨U+DC00⟩b");
    assert.equal(visibleText("end\uD83D"), "end⟨U+D83D⟩");
    assert.equal(visibleText("\uDE00start"), "⟨U+DE00⟩start");
    for (const ok of ["😀 fine", "👩‍💻 dev", "👨‍👩‍👧", "🏳️‍🌈", "👍🏽‍x", "naïve café 日本語 עברית العربية"]) {
      const expected = ok === "👍🏽‍x" ? "👍🏽⟨U+200D⟩x" : ok;
      assert.equal(visibleText(ok), expected, ok);
    }
  });

  it("plain text comes back as the same string; HTML is left to the view (it is text there)", () => {
    const s = "hello <img src=x onerror=alert(1)> & world";
    assert.equal(visibleText(s), s);
    assert.equal(hasHiddenText(s), false);
    assert.equal(hasHiddenText("a\u202Eb"), true);
  });

  it("a megabyte label is marked in linear time", () => {
    const big = "\u202Eab\u0000".repeat(256 * 1024);
    const t0 = Date.now();
    const out = visibleText(big);
    assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`);
    assert.equal(out.length, 256 * 1024 * (8 + 2 + 8));
    assert.ok(!/[\u202E\u0000]/.test(out));
  });
});

describe("clipText", () => {
  it("cuts long text with an ellipsis and never splits a surrogate pair", () => {
    assert.equal(clipText("short", 10), "short");
    assert.equal(clipText("0123456789abc", 10), "012345678…");
    const s = `${"x".repeat(8)}😀tail`;
    const cut = clipText(s, 10);
    assert.equal(cut, "xxxxxxxx…");
    assert.equal(hasHiddenText(cut), false);
  });
});
