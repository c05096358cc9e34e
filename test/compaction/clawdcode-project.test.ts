import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { jsonl, type Raw, tenMessages } from "../formats/clawdcode/lines";
import { FakeAnthropic } from "./fake-anthropic";

/**
 * A clawdcode session file is untrusted: its `cwd` must not choose which files leave the
 * machine with a compaction. Files are read only when the session's cwd is inside the
 * project the user opened (the CLI's working directory), and only inside that cwd, links
 * resolved; the rest are named in the dry run as not read and never sent.
 */
describe("clawdcode compaction reads files only inside the project the user opened", function () {
  this.timeout(120_000);
  let root: string;
  let project: string;
  let secret: string;

  async function ase(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
    let out = "";
    let err = "";
    const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd });
    return { code, out, err };
  }

  /** The ten-message session whose first tool call wrote `path`, every line saying `cwd`. */
  function session(path: string, cwd: string): string {
    const file = join(root, "store", `${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(file, jsonl(tenMessages(path).map((x: Raw) => ({ ...x, cwd }))));
    return file;
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "ase-clawd-project-"));
    project = join(root, "proj");
    mkdirSync(project);
    mkdirSync(join(root, "store"));
    mkdirSync(join(root, "home"));
    secret = join(root, "home", ".gitconfig");
    writeFileSync(secret, "[user]\n  token = SECRET-CREDS\n");
    writeFileSync(join(project, "ci.yml"), "jobs:\n  test: {}\n");
    symlinkSync(secret, join(project, "link.yml"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a session saying cwd "/": the dry run lists the file as not read, outside the project', async () => {
    const r = await ase(["compact", session(secret, "/"), "--dry-run"], project);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /files for the summary .*: \(none\)/);
    assert.ok(r.out.includes(`not read: ${secret} (outside the project)`), r.out);
    assert.ok(!r.out.includes("SECRET-CREDS"));
  });

  it('a session saying cwd "/": the request to the API holds no such file', async () => {
    const fake = await FakeAnthropic.start([{ kind: "message", text: "SUMMARY" }], { apiKey: "k" });
    try {
      const r = await ase(["compact", session(secret, "/")], project, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url });
      assert.equal(r.code, 0, r.err);
      assert.equal(fake.requests.length, 1);
      const body = JSON.stringify(fake.requests[0].body);
      assert.ok(!body.includes("SECRET-CREDS"), "the file's content went to the API");
      assert.ok(!body.includes("<file path="), "a file went to the API");
      assert.match(r.out, /files included: \(none\)/);
    } finally {
      await fake.close();
    }
  });

  it("a session inside the project: its files are read; a link out of it is not", async () => {
    const r = await ase(["compact", session("ci.yml", project), "--dry-run"], project);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /files for the summary .*: ci\.yml$/m);
    const link = await ase(["compact", session("link.yml", project), "--dry-run"], project);
    assert.match(link.out, /files for the summary .*: \(none\)/);
    assert.ok(link.out.includes("not read: link.yml (outside the project"), link.out);
  });

  it("the same session opened from another folder: nothing is read", async () => {
    const elsewhere = join(root, "home");
    const r = await ase(["compact", session("ci.yml", project), "--dry-run"], elsewhere);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /files for the summary .*: \(none\)/);
    assert.ok(r.out.includes("not read: ci.yml (outside the project"), r.out);
  });
});
