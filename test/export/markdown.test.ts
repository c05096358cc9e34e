import { strict as assert } from "node:assert";
import { openSession } from "../../src/core/formats/registry";
import { branchMarkdown, entryMarkdown, sessionMarkdown } from "../../src/core/export/markdown";
import { fenced, inlineCode, prose } from "../../src/core/export/markdown-text";
import { createRedactor } from "../../src/core/export/redact/create-redactor";
import { passThroughRedactor } from "../../src/core/export/redactor";
import * as pi from "../helpers/session-builder";

/** The lines of a Markdown text outside its fenced code blocks (CommonMark's fence rule). */
function outsideFences(md: string): string[] {
  const out: string[] = [];
  let open: { ch: string; len: number } | undefined;
  for (const line of md.split("\n")) {
    const f = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open) {
      if (f && f[1][0] === open.ch && f[1].length >= open.len && !f[2].trim()) open = undefined;
      continue;
    }
    if (f) {
      open = { ch: f[1][0], len: f[1].length };
      continue;
    }
    out.push(line);
  }
  assert.equal(open, undefined, "a code fence is left open at the end");
  return out;
}

const HOSTILE = [
  "# Turn 99",
  "</details></details><script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "```js",
  "an unclosed fence swallowing the rest",
].join("\n");

function hostileSession(): string {
  return pi.writeSession([
    pi.header(),
    pi.user("u1", null, HOSTILE),
    pi.assistant("a1", "u1", "reading", { toolCalls: [{ id: "c1", name: "bash", arguments: { command: "echo '````'" } }] }),
    pi.toolResult("r1", "a1", "c1", "bash", "````\n</details>\n# Turn 98\n`````"),
    pi.entry("label", "l1", "r1", { targetId: "u1", label: "</summary><b>x</b>\n# nope" }),
    pi.assistant("a2", "l1", "done"),
  ]);
}

describe("export: Markdown", () => {
  it("hostile text cannot open HTML, close our <details>, forge a turn or leave a fence open", async () => {
    const md = await sessionMarkdown(await openSession(hostileSession()), passThroughRedactor());
    const outside = outsideFences(md);
    // Our structure only: as many <details> as </details>, each on its own line.
    assert.equal(outside.filter((l) => l === "<details>").length, outside.filter((l) => l === "</details>").length);
    assert.ok(outside.filter((l) => l === "<details>").length >= 2);
    for (const l of outside) {
      assert.doesNotMatch(l, /<script|<img|<b>|<\/summary><b>/i, l);
      assert.doesNotMatch(l, /^#+ Turn 9[89]/, l);
    }
    // Exactly the turns of the session, no forged one.
    assert.deepEqual(outside.filter((l) => /^#+ Turn /.test(l)), ["## Turn 1"]);
    // The text is all there, shown as text.
    assert.match(md, /\\# Turn 99/);
    assert.match(md, /&lt;\/details>&lt;\/details>&lt;script>/);
    assert.match(md, /``````\n````\n<\/details>\n# Turn 98\n`````\n``````/);
  });

  it("fences outgrow any run of backticks; inline code too; prose closes a fence it opened", () => {
    assert.equal(fenced("a ```` b"), "`````\na ```` b\n`````");
    assert.equal(fenced("plain", "json"), "```json\nplain\n```");
    assert.equal(inlineCode("a`b"), "``a`b``");
    assert.equal(inlineCode("`x"), "`` `x ``");
    assert.equal(prose("x\n```\n<b>\n"), "x\n```\n<b>\n\n```");
    assert.equal(prose("<b> & # h"), "&lt;b> &amp; # h");
    assert.equal(prose("# h"), "\\# h");
  });

  it("a branch: a heading per turn, calls and results folded and titled by the call, branch points and compactions marked, figures at the end", async () => {
    const file = pi.writeSession([
      pi.header(),
      pi.user("u1", null, "read it"),
      pi.assistant("a1", "u1", "", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "/home/ana/proj/src/a.ts" } }] }),
      pi.toolResult("r1", "a1", "c1", "read", "line 1\nline 2"),
      pi.assistant("a2", "r1", "It has two lines."),
      pi.user("u2", "a2", "and then?"),
      pi.user("u3", "a2", "another way"),
      pi.entry("compaction", "k1", "u3", { summary: "We read a.ts.", firstKeptEntryId: "u3", tokensBefore: 900, details: { readFiles: ["src/a.ts"], modifiedFiles: [] } }),
      pi.assistant("a3", "k1", "ok"),
    ]);
    const s = await openSession(file);
    const md = await branchMarkdown(s, "a3", createRedactor({ home: "/home/ana" }));
    assert.deepEqual(outsideFences(md).filter((l) => /^## /.test(l)), ["## Turn 1", "## Turn 2", "## Tokens and cost"]);
    assert.match(md, /<summary>Tool call: Read \\~\/proj\/src\/a\.ts<\/summary>/);
    assert.match(md, /<summary>Result: Read \\~\/proj\/src\/a\.ts \(2 lines\)<\/summary>/);
    assert.match(md, /⑂ Branch point\*\*: 2 branches continue from here \(`u2`, `u3`\)/);
    assert.match(md, /⟲ Compaction\*\*: 900 tokens before, kept from `u3`/);
    assert.match(md, /\| This branch \| 3 \| 300 \| 60 \|/);
    assert.doesNotMatch(md, /and then\?/, "u2 is on another branch");
    const all = await sessionMarkdown(s, createRedactor(), { all: true });
    assert.match(all, /## Branch 2 \(leaves the branch above at `a2`\)[\s\S]*and then\?/);
  });

  it("Copy as Markdown: one entry, redacted", async () => {
    const file = pi.writeSession([pi.header(), pi.user("u1", null, "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789")]);
    const md = entryMarkdown(await openSession(file), "u1", createRedactor());
    assert.match(md, /^### User\n\n<sub>`u1` · /);
    assert.match(md, /token: \[REDACTED:github-pat\]/);
  });
});
