import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join, resolve } from "node:path";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { renderAnthropic } from "../../src/core/formats/pi/context/render-anthropic";
import { Session } from "../../src/core/formats/pi/pi-session";
import { countWithAnthropic } from "../../src/core/formats/pi/tokens/anthropic-count";
import { FakeAnthropic } from "../compaction/fake-anthropic";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

describe("exact context count through the Messages API count-tokens endpoint", () => {
  let fake: FakeAnthropic;
  before(async () => {
    fake = await FakeAnthropic.start([], { apiKey: "k", countTokens: (b) => 1000 + (b.messages?.length ?? 0) });
  });
  after(() => fake.close());

  it("sends the leaf's request and caches the answer by request hash", async () => {
    const s = await Session.load(writeSession([header(), user("00000001", null, "q"), assistant("00000002", "00000001", "a"), user("00000003", "00000002", "again")]));
    const { body } = renderAnthropic(buildContext(s), { system: "SYS" });
    const cachePath = join(tempDir(), "counts.json");
    const before = fake.requests.length;
    const first = await countWithAnthropic(body, { apiKey: "k", baseURL: fake.url, cachePath });
    assert.deepEqual(first, { inputTokens: 1003, model: "claude-sonnet-4-5", cached: false });
    const req = fake.requests[fake.requests.length - 1];
    assert.equal(req.path, "/v1/messages/count_tokens");
    assert.equal(req.body.system, "SYS");
    const second = await countWithAnthropic(body, { apiKey: "k", baseURL: fake.url, cachePath });
    assert.equal(second.cached, true);
    assert.equal(fake.requests.length, before + 1, "the second count made no request");
    await assert.rejects(countWithAnthropic(body, { apiKey: "wrong", baseURL: fake.url }), /401/);
  });

  // The fake server runs in this process, so the CLI is run without blocking it.
  const run = async (args: string[], env: NodeJS.ProcessEnv) => {
    try {
      const r = await promisify(execFile)(process.execPath, [resolve("dist/cli.js"), ...args], { env, maxBuffer: 64 << 20 });
      return { code: 0, out: r.stdout, err: r.stderr };
    } catch (e) {
      const x = e as { code?: number; stdout?: string; stderr?: string };
      return { code: x.code ?? 1, out: x.stdout ?? "", err: x.stderr ?? "" };
    }
  };

  it("ase tokens --anthropic-count adds the provider's count; without a key it exits 2", async () => {
    const file = writeSession([header(), user("00000001", null, "q"), assistant("00000002", "00000001", "a")]);
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: tempDir(), ANTHROPIC_BASE_URL: fake.url };
    delete env.ANTHROPIC_API_KEY;
    const no = await run(["tokens", file, "--anthropic-count"], env);
    assert.equal(no.code, 2);
    assert.match(no.err, /needs ANTHROPIC_API_KEY/);
    assert.equal(no.out, "");
    const ok = await run(["tokens", file, "--anthropic-count", "--json"], { ...env, ANTHROPIC_API_KEY: "k" });
    assert.equal(ok.code, 0, ok.err);
    assert.equal(JSON.parse(ok.out).anthropicCount.inputTokens, 1002);
  });
});
