import { strict as assert } from "node:assert";
import { lineDiff } from "../../src/core/util/line-diff";
import { editCounts, lineCount, relativePath, SUMMARY_WIDTH, summarizeCalls, summarizeToolCall, toolEdits } from "../../src/core/session/tool-summary";

const CWD = "/home/dev/demo";
const s = (name: string, input: unknown, width?: number) => summarizeToolCall(name, input, CWD, width);

describe("tool-call summaries (one line per call, every format)", () => {
  it("pi's tools: read, bash, edit, write, ls, grep, find", () => {
    assert.equal(s("read", { path: `${CWD}/b.txt` }), "Read b.txt");
    assert.equal(s("read", { path: "src/a.ts", offset: 10, limit: 5 }), "Read src/a.ts (lines 10-14)");
    assert.equal(s("bash", { command: "ls" }), "$ ls");
    assert.equal(s("edit", { path: `${CWD}/src/csv.js`, oldText: "a,b", newText: "a;b" }), "Edit src/csv.js (-1 +1)");
    assert.equal(s("edit", { path: "x.ts", edits: [{ oldText: "a", newText: "b\nc" }, { oldText: "d\ne", newText: "" }] }), "Edit x.ts (2 edits, -3 +2)");
    assert.equal(s("write", { path: `${CWD}/notes.md`, content: "one\ntwo\n" }), "Write notes.md (+2)");
    assert.equal(s("ls", { path: CWD }), "List .");
    assert.equal(s("ls", {}), "List .");
    assert.equal(s("grep", { pattern: "TODO", path: `${CWD}/src`, glob: "*.ts" }), 'Grep "TODO" (*.ts) in src');
    assert.equal(s("find", { pattern: "*.json", path: "/etc" }), "Find *.json in /etc");
  });

  it("Claude Code's tools: Read, Write, Edit, MultiEdit, Bash, Glob, Grep, LS, Task/Agent, WebFetch, WebSearch, TodoWrite, NotebookEdit", () => {
    assert.equal(s("Read", { file_path: `${CWD}/b.txt` }), "Read b.txt");
    assert.equal(s("Write", { file_path: `${CWD}/src/new.ts`, content: "a\nb\nc" }), "Write src/new.ts (+3)");
    assert.equal(s("Edit", { file_path: `${CWD}/src/csv.js`, old_string: "split(',')", new_string: "split(';')" }), "Edit src/csv.js (-1 +1)");
    // Counted as the detail pane's diff counts: the lines an edit's texts share are not changes.
    assert.equal(s("Edit", { file_path: "a.ts", old_string: "keep\nold\nkeep too", new_string: "keep\nnew\nkeep too" }), "Edit a.ts (-1 +1)");
    assert.equal(s("MultiEdit", { file_path: `${CWD}/a.ts`, edits: [{ old_string: "x", new_string: "y\nz" }, { old_string: "p", new_string: "q" }] }), "Edit a.ts (2 edits, -2 +3)");
    assert.equal(s("Bash", { command: "npm test\n  -- --grep lex", description: "Run the tests" }), "$ npm test -- --grep lex");
    assert.equal(s("Glob", { pattern: "**/*.test.ts", path: `${CWD}/test` }), "Glob **/*.test.ts in test");
    assert.equal(s("Grep", { pattern: "lex\\(", path: `${CWD}/src`, output_mode: "content" }), 'Grep "lex\\(" in src');
    assert.equal(s("LS", { path: `${CWD}/src` }), "List src");
    assert.equal(s("Task", { subagent_type: "Explore", description: "Survey the test suite", prompt: "Look at every test file and ..." }), "Agent (Explore): Survey the test suite");
    assert.equal(s("Agent", { description: "Find the bug", prompt: "..." }), "Agent: Find the bug");
    assert.equal(s("Agent", { subagent_type: "general-purpose", prompt: "Summarize\nthe repo" }), "Agent (general-purpose): Summarize the repo");
    assert.equal(s("WebFetch", { url: "https://example.com/docs", prompt: "what is it" }), "Fetch https://example.com/docs");
    assert.equal(s("WebSearch", { query: "vscode webview csp" }), "Search the web: vscode webview csp");
    const todos = [
      { content: "a", status: "completed", activeForm: "A" },
      { content: "b", status: "in_progress", activeForm: "B" },
      { content: "c", status: "pending", activeForm: "C" },
    ];
    assert.equal(s("TodoWrite", { todos }), "Update todos (3: 1 done, 1 in progress)");
    assert.equal(s("TaskCreate", { subject: "Merge the branches", description: "..." }), "Create task: Merge the branches");
    assert.equal(s("TaskUpdate", { taskId: "1", status: "completed" }), "Update task 1: completed");
    assert.equal(s("TaskList", {}), "List tasks");
    assert.equal(s("Skill", { skill: "my-worktree-actors" }), "Skill my-worktree-actors");
    assert.equal(s("SendMessage", { to: "alice", summary: "round 2", message: "Round 2 - go." }), "Message alice: round 2");
    assert.equal(s("ToolSearch", { query: "select:TaskCreate", max_results: 4 }), "Find tools: select:TaskCreate");
    assert.equal(s("NotebookEdit", { notebook_path: `${CWD}/nb.ipynb`, cell_id: "c3", new_source: "x", edit_mode: "insert" }), "Edit nb.ipynb (insert cell c3)");
  });

  it("clawdcode's and seed-000's tools (bash, write, read; read_file, edit_file, grep, run, run_test) and the text editor tool", () => {
    assert.equal(s("bash", { command: "npm run build" }), "$ npm run build");
    assert.equal(s("write", { path: "src/config.ts", content: "export {}\n" }), "Write src/config.ts (+1)");
    assert.equal(s("read_file", { path: "src/parse.ts" }), "Read src/parse.ts");
    assert.equal(s("edit_file", { path: "src/parse.ts", old: "export function parse(", new: "/** Parses source text. */\nexport function parse(" }), "Edit src/parse.ts (-0 +1)");
    assert.equal(s("grep", { pattern: "lex(", path: "test/" }), 'Grep "lex(" in test/');
    assert.equal(s("run", { cmd: "npm test -- lex" }), "$ npm test -- lex");
    assert.equal(s("run_test", { name: "test_10" }), "Run test test_10");
    assert.equal(s("str_replace_based_edit_tool", { command: "view", path: `${CWD}/a.py` }), "Read a.py");
    assert.equal(s("str_replace_based_edit_tool", { command: "str_replace", path: `${CWD}/a.py`, old_str: "x = 1", new_str: "x = 2" }), "Edit a.py (-1 +1)");
    assert.equal(s("str_replace_based_edit_tool", { command: "create", path: `${CWD}/b.py`, file_text: "1\n2\n" }), "Write b.py (+2)");
  });

  it("an unknown tool: Name key=value, ... (never JSON braces); odd names and inputs", () => {
    assert.equal(s("mcp__github__create_issue", { repo: "a/b", title: "Bug", labels: ["x", "y"], body: { nested: true }, draft: false }), "mcp__github__create_issue repo=a/b, title=Bug, labels=2 items, body=(...), draft=false");
    assert.equal(s("Skill", "commit"), "Skill commit");
    assert.equal(s("Ping", undefined), "Ping");
    assert.equal(s("Ping", {}), "Ping");
    assert.equal(summarizeToolCall(42, { a: 1 }), "(unnamed tool) a=1");
    // Names that are keys of every object are tools like any other, not Object's methods.
    assert.equal(s("constructor", { a: 1 }), "constructor a=1");
    assert.equal(s("__proto__", { a: 1 }), "__proto__ a=1");
    // A known tool whose input is not an object falls back too.
    assert.equal(s("Read", "b.txt"), "Read b.txt");
    for (const out of [s("mcp_x", { a: { b: { c: 1 } } }), s("Bash", { command: { x: 1 } }), s("x", [1, 2])]) assert.ok(!/[{}]/.test(out), out);
  });

  it("paths: relative only inside the cwd, '.' for the cwd itself, Windows separators", () => {
    assert.equal(relativePath("/home/dev/demo/src/a.ts", "/home/dev/demo"), "src/a.ts");
    assert.equal(relativePath("/home/dev/demo/src/a.ts", "/home/dev/demo/"), "src/a.ts");
    assert.equal(relativePath("/home/dev/demo", "/home/dev/demo"), ".");
    assert.equal(relativePath("/home/dev/demo2/a.ts", "/home/dev/demo"), "/home/dev/demo2/a.ts", "a sibling folder sharing the prefix is not inside");
    assert.equal(relativePath("/etc/hosts", "/home/dev/demo"), "/etc/hosts");
    assert.equal(relativePath("C:\\work\\app\\src\\a.ts", "C:\\work\\app"), "src\\a.ts");
    assert.equal(relativePath("/a/b", "/"), "/a/b");
    assert.equal(relativePath("/a/b", undefined), "/a/b");
    assert.equal(summarizeToolCall("Read", { file_path: "/home/dev/demo/b.txt" }), "Read /home/dev/demo/b.txt", "no cwd: the path as written");
  });

  it("clipped to the width, one line, also for a hostile 100k-character path and command", () => {
    const long = `${CWD}/${"d/".repeat(50_000)}x.ts`;
    const started = Date.now();
    const read = s("Read", { file_path: long });
    assert.equal(read.length, SUMMARY_WIDTH);
    assert.ok(read.startsWith("Read d/d/d/") && read.endsWith("..."), read);
    const cmd = s("Bash", { command: `echo ${"a\n\t ".repeat(100_000)}` });
    assert.ok(cmd.length <= SUMMARY_WIDTH && !/[\n\t]/.test(cmd), cmd);
    const wide = s("mcp_tool", Object.fromEntries(Array.from({ length: 10_000 }, (_, k) => [`k${k}`, "v".repeat(1000)])));
    assert.ok(wide.length <= SUMMARY_WIDTH && wide.endsWith("..."), wide);
    assert.equal(s("Read", { file_path: `${CWD}/a.ts` }, 8), "Read ...");
    assert.ok(Date.now() - started < 2000, "huge inputs are cut before they are flattened");
    // A cut never leaves half a surrogate pair.
    const emoji = s("Read", { file_path: "😀".repeat(200) });
    assert.ok(!/[\ud800-\udbff]\.\.\.$/.test(emoji), emoji);
  });

  it("several calls of one response: all listed, or counted first when long", () => {
    assert.equal(summarizeCalls(["Read a.ts", "Read b.ts", "$ npm test"]), "Read a.ts, Read b.ts, $ npm test");
    const many = summarizeCalls(Array.from({ length: 30 }, (_, k) => `Read src/file${k}.ts`));
    assert.ok(many.startsWith("30 tool calls: Read src/file0.ts, Read src/file1.ts") && many.length === SUMMARY_WIDTH, many);
    assert.equal(summarizeCalls([]), "");
  });

  it("edits for the detail pane: old and new text of Edit, MultiEdit, str_replace, pi's and the seed's edit; none for other tools", () => {
    assert.deepEqual(toolEdits("Edit", { file_path: `${CWD}/a.ts`, old_string: "x", new_string: "y" }, CWD), [{ path: "a.ts", oldText: "x", newText: "y" }]);
    assert.deepEqual(toolEdits("MultiEdit", { file_path: "a.ts", edits: [{ old_string: "1", new_string: "2" }, { old_string: "3", new_string: "4" }] })?.map((e) => e.newText), ["2", "4"]);
    assert.deepEqual(toolEdits("edit", { path: "a.ts", oldText: "o", newText: "n" }), [{ path: "a.ts", oldText: "o", newText: "n" }]);
    assert.deepEqual(toolEdits("edit_file", { path: "a.ts", old: "o", new: "n" }), [{ path: "a.ts", oldText: "o", newText: "n" }]);
    assert.deepEqual(toolEdits("str_replace_based_edit_tool", { command: "str_replace", path: "a.ts", old_str: "o", new_str: "n" }), [{ path: "a.ts", oldText: "o", newText: "n" }]);
    assert.equal(toolEdits("str_replace_based_edit_tool", { command: "view", path: "a.ts" }), undefined);
    assert.equal(toolEdits("Read", { file_path: "a.ts" }), undefined);
    assert.equal(toolEdits("Edit", { file_path: "a.ts" }), undefined, "an edit without texts has nothing to diff");
    assert.equal(toolEdits("Edit", "nonsense"), undefined);
  });

  it("line counts and the unified line diff of an edit", () => {
    assert.deepEqual([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb"), lineCount(undefined)], [0, 1, 1, 2, 0]);
    assert.deepEqual(lineDiff("a\nb\nc\n", "a\nB\nc\nd\n"), [
      { op: " ", text: "a" },
      { op: "-", text: "b" },
      { op: "+", text: "B" },
      { op: " ", text: "c" },
      { op: "+", text: "d" },
    ]);
    assert.deepEqual(lineDiff("", "x"), [{ op: "+", text: "x" }]);
    assert.deepEqual(editCounts("a\nb\nc\n", "a\nB\nc\nd\n"), { minus: 1, plus: 2 });
    // Huge texts are counted whole rather than diffed (the index reads every line).
    assert.deepEqual(editCounts("x\n".repeat(20_000), "x\n".repeat(20_000)), { minus: 20_000, plus: 20_000 });
    assert.deepEqual(lineDiff("same", "same"), [{ op: " ", text: "same" }]);
    // Too different to search: the middle is shown removed, then added (and quickly).
    const a = Array.from({ length: 3000 }, (_, k) => `a${k}`).join("\n");
    const b = Array.from({ length: 3000 }, (_, k) => `b${k}`).join("\n");
    const d = lineDiff(a, b);
    assert.equal(d.length, 6000);
    assert.equal(d[0].op, "-");
    assert.equal(d[5999].op, "+");
  });
});
