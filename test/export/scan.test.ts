import { strict as assert } from "node:assert";
import { createRedactor } from "../../src/core/export/redact/create-redactor";
import { scanText } from "../../src/core/export/redact/scan";
import { secretBlob, secretKinds } from "./secret-kinds";

describe("export redaction: the secret scan", () => {
  const kinds = secretKinds();

  it("has at least 30 kinds of secret to find", () => {
    assert.ok(new Set(kinds.map((k) => k.kind)).size >= 30, `${kinds.length} kinds`);
  });

  for (const s of kinds) {
    it(`${s.kind}: replaced by [REDACTED:${s.rule}], alone and among the others`, () => {
      const alone = scanText(`here: ${s.text} (end)`);
      assert.ok(!alone.text.includes(s.needle), `left in: ${alone.text}`);
      assert.ok(alone.text.includes(`[REDACTED:${s.rule}]`), `${alone.text} names ${[...alone.hits.keys()]}`);
      // Inside a JSON string's text (an export's JSON, a tool input shown as JSON) too, and the JSON stays JSON.
      const json = JSON.stringify({ input: { note: `set ${s.text}` } });
      const red = scanText(json).text;
      assert.ok(!red.includes(s.needle), `left in JSON: ${red}`);
      assert.doesNotThrow(() => JSON.parse(red), red);
    });
  }

  it("all kinds in one text: none survives", () => {
    const out = scanText(secretBlob(kinds)).text;
    for (const s of kinds) assert.ok(!out.includes(s.needle), `${s.kind} left in`);
  });

  it("keeps what only looks like a secret: counts of tokens, ids, hashes, code, placeholders", () => {
    const keep = [
      `"input_tokens": 123456789, "max_tokens": 64000, "cache_read_input_tokens": 98765432`,
      "id 0f6a2c3e-5b7d-4e21-9a0b-7c1d2e3f4a5b and commit 3f786850e387550fdab836ed7e6dc881de23001b",
      "const token = await session.getAccessToken();",
      "password = process.env.DB_PASSWORD",
      "API_KEY=${API_KEY}",
      "postgres://user:password@localhost/db",
      "Authorization: required for every call",
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "see https://github.com/org/repo/blob/main/src/token-counter.ts",
    ];
    for (const t of keep) assert.equal(scanText(t).text, t);
  });

  it("the report counts per rule and names the entries hit; home and user replaced when asked", () => {
    const r = createRedactor({ home: "/home/ana", user: "ana" });
    const [gh, npm] = [kinds.find((k) => k.rule === "github-pat"), kinds.find((k) => k.rule === "npm-access-token")];
    assert.ok(gh && npm);
    assert.equal(r.redact(`${gh.text} and ${gh.text}`, { entryId: "e1", field: "message" }), "[REDACTED:github-pat] and [REDACTED:github-pat]");
    r.redact(npm.text, { entryId: "e2", field: "tool output" });
    r.redact(gh.text, { entryId: "e2", field: "tool input" });
    // The name is replaced where it names the user (a path segment, user@host), not as a word of prose ("root", "dev").
    assert.equal(r.redact("cat /home/ana/proj/a.ts /Users/ana/b ana@build # by ana, not banana", { entryId: "e3", field: "path" }), "cat ~/proj/a.ts /Users/<user>/b <user>@build # by ana, not banana");
    const report = r.report();
    assert.equal(report.total, 7);
    assert.deepEqual(report.rules.map((x) => [x.rule, x.count, x.entryIds]), [
      ["github-pat", 3, ["e1", "e2"]],
      ["npm-access-token", 1, ["e2"]],
      ["home-folder", 1, ["e3"]],
      ["user-name", 2, ["e3"]],
    ]);
  });

  it("the home folder alone: only home-folder is counted", () => {
    const r = createRedactor({ home: "/home/ana" });
    assert.equal(r.redact("ls /home/ana/a /home/ana/b", { entryId: "e1", field: "tool input" }), "ls ~/a ~/b");
    assert.deepEqual(r.report().rules.map((x) => [x.rule, x.count]), [["home-folder", 2]]);
  });

  it("images: kept unscanned by default, dropped when asked", () => {
    assert.equal(createRedactor().redact("iVBORw0KGgo=", { field: "image" }), "iVBORw0KGgo=");
    const r = createRedactor({ dropImages: true });
    assert.equal(r.redact("iVBORw0KGgo=", { entryId: "e9", field: "image" }), "");
    assert.deepEqual(r.report().rules.map((x) => x.rule), ["image-dropped"]);
  });
});
