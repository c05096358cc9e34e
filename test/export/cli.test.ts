import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { main } from "../../src/cli/main";
import { EXPORT_SCHEMA } from "../../src/core/export/json";
import * as pi from "../helpers/session-builder";
import { tempDir } from "../helpers/session-builder";
import { secretKinds } from "./secret-kinds";

const GH = secretKinds().find((k) => k.rule === "github-pat")?.text as string;

function session(): string {
  return pi.writeSession([
    pi.header({ cwd: "/home/ana/proj" }),
    pi.user("u1", null, `use ${GH}`),
    pi.assistant("a1", "u1", "ok"),
    pi.user("u2", "u1", "other way"),
  ]);
}

async function ase(args: string[], onErr?: (t: string) => void) {
  let out = "";
  let err = "";
  const code = await main(["export", ...args], {
    out: (t) => (out += t),
    err: (t) => {
      onErr?.(t);
      err += t;
    },
    env: { HOME: "/home/ana", USER: "ana" },
    cwd: process.cwd(),
  });
  return { code, out, err };
}

describe("ase export", () => {
  it("Markdown to stdout, the report on stderr: rule, count, entries", async () => {
    const r = await ase([session()]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^# Session /);
    assert.ok(!r.out.includes(GH));
    assert.match(r.out, /use \[REDACTED:github-pat\]/);
    // Rules in the order first seen: the Markdown is written as it is made, its head (the file's folder) first.
    assert.match(r.err, /^redaction: 2 replacement\(s\) by 2 rule\(s\):\n {2}home-folder {2}1 .*\n {2}github-pat {2}1 {2}GitHub personal access token {2}in u1\n/);
    assert.match(r.out, /`~\/proj`/);
  });

  it("--format html -o: the self-contained page, the secret redacted; -o out.html picks HTML by itself", async () => {
    const out = join(tempDir(), "page.html");
    const r = await ase([session(), "-o", out, "--all"]);
    assert.equal(r.code, 0, r.err);
    const html = readFileSync(out, "utf8");
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.ok(!html.includes(GH) && !html.includes(GH.slice(-12)), "the token is not in the page");
    assert.ok(html.includes("other way"), "the whole tree: the other branch too");
    assert.match(r.err, /wrote .*page\.html \(html, \d+ bytes\)/);
  });

  it("--json -o: the report on stdout before the file is written; the file is the JSON export", async () => {
    const out = join(tempDir(), "x.json");
    const r = await ase([session(), "--json", "-o", out, "--leaf", "a1"]);
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out);
    assert.equal(report.output, out);
    assert.equal(report.redacted, true);
    assert.deepEqual(report.rules.map((x: { rule: string }) => x.rule), ["home-folder", "github-pat"]);
    const j = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(j.schema, EXPORT_SCHEMA);
    assert.equal(j.leafId, "a1");
    assert.deepEqual(j.entries.map((e: { id: string }) => e.id), ["u1", "a1"]);
    assert.deepEqual(j.context.messages.map((m: { entryId: string }) => m.entryId), ["u1", "a1"]);
    assert.ok(!readFileSync(out, "utf8").includes(GH));
    // Written through a temp file: nothing else is left in the folder.
    assert.deepEqual(readdirSync(dirname(out)), ["x.json"]);
  });

  it("the report is printed before -o is written", async () => {
    const out = join(tempDir(), "x.md");
    let existedAtReport: boolean | undefined;
    const r = await ase([session(), "-o", out], (t) => {
      if (t.startsWith("redaction:")) existedAtReport = existsSync(out);
    });
    assert.equal(r.code, 0, r.err);
    assert.equal(existedAtReport, false);
    assert.ok(existsSync(out));
    assert.match(r.err, /wrote .*x\.md \(md, \d+ bytes\)/);
    assert.equal(r.out, "");
  });

  it("--no-redact keeps everything and says so", async () => {
    const r = await ase([session(), "--format", "json", "--no-redact"]);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.includes(GH));
    assert.equal(JSON.parse(r.out).redacted, false);
    assert.equal(r.err, "redaction: off (--no-redact): nothing was replaced\n");
  });

  it("--all exports every entry", async () => {
    const r = await ase([session(), "--all", "--format", "json"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out).entries.map((e: { id: string }) => e.id), ["u1", "a1", "u2"]);
  });

  it("bad input: one line, exit 2, nothing written; never over the session", async () => {
    const file = session();
    const before = readFileSync(file, "utf8");
    const cases: Array<[string[], RegExp]> = [
      [[file, "-o", file], /that is the session being exported/],
      [[file, "--format", "pdf"], /--format must be html, md or json, got "pdf"/],
      [[file, "--leaf", "u1", "--all"], /--leaf and --all exclude each other/],
      [[file, "--leaf", "nope"], /no entry with id "nope"/],
      [[file, "--json"], /give -o OUT/],
      [[file, "--no-redact", "--drop-images"], /do not go with --no-redact/],
      [[join(tempDir(), "missing.jsonl")], /missing\.jsonl/],
    ];
    for (const [args, msg] of cases) {
      const r = await ase(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.match(r.err, msg);
      assert.equal(r.err.trim().split("\n").length, 1, r.err);
      assert.equal(r.out, "");
    }
    const other = join(tempDir(), "other.jsonl");
    writeFileSync(other, "{}\n");
    const r = await ase([file, "-o", other]);
    assert.equal(r.code, 2);
    assert.match(r.err, /an existing \.jsonl file \(a session\?\) is never overwritten/);
    assert.equal(readFileSync(other, "utf8"), "{}\n");
    assert.equal(readFileSync(file, "utf8"), before);
  });
});
