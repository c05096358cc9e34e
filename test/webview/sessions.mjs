// Sessions for the webview tests, built here as plain entry trees (what the host would
// index): a realistic small one, an XSS one, and a 100,000-row one generated lazily.

const TS0 = Date.parse("2026-03-02T09:14:00.000Z");
let tick = 0;
const ts = () => new Date(TS0 + 7000 * tick++).toISOString();

// A 1x1 PNG.
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function e(id, parentId, type, role, preview, tokens, blocks = [], extra = {}) {
  return { id, parentId, type, role, preview, tokens, blocks, timestamp: ts(), ...extra };
}
const text = (t) => ({ kind: "text", text: t });
const LONG_READ = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(4)}  export function line${i}() { return ${i}; }`).join("\n");

/** A session with branches, a compaction, labels, tool calls, an image and bash output. */
export function realisticSession() {
  tick = 0;
  const entries = [
    e("u1", null, "message", "user", "Add a --json flag to the `ase list` command", 24, [text("Add a --json flag to the `ase list` command so scripts can consume it.")]),
    e("a1", "u1", "message", "assistant", "I'll read the CLI entry point first.", 180, [
      { kind: "thinking", text: "The list command lives in src/cli/commands/list.ts; check how output is formatted." },
      text("I'll read the CLI entry point first."),
      { kind: "toolCall", title: "read", text: JSON.stringify({ path: "src/cli/commands/list.ts" }, null, 2) },
    ], { meta: [["model", "claude-sonnet-4-5"], ["stop reason", "toolUse"], ["usage", "input 1,204 · output 180 · cache read 0"]] }),
    e("t1", "a1", "message", "toolResult", "read src/cli/commands/list.ts (400 lines)", 3900, [{ kind: "toolResult", title: "read", text: LONG_READ.slice(0, 1200), fullLength: LONG_READ.length, full: LONG_READ }]),
    e("a2", "t1", "message", "assistant", "Adding the flag and a JSON formatter.", 420, [text("Adding the flag and a JSON formatter."), { kind: "toolCall", title: "edit", text: JSON.stringify({ path: "src/cli/commands/list.ts", oldText: "if (args.long)", newText: "if (args.json) return printJson(rows);\nif (args.long)" }, null, 2) }]),
    e("t2", "a2", "message", "toolResult", "Successfully replaced text in src/cli/commands/list.ts", 30, [{ kind: "toolResult", title: "edit", text: "Successfully replaced text in src/cli/commands/list.ts" }]),
    e("a3", "t2", "message", "assistant", "Done: `ase list --json` prints one object per session.", 95, [text("Done: `ase list --json` prints one object per session.")]),
    e("u2", "a3", "message", "user", "Run the tests please", 8, [text("Run the tests please")]),
    e("a4", "u2", "message", "assistant", "Running npm test.", 60, [text("Running npm test."), { kind: "toolCall", title: "bash", text: JSON.stringify({ command: "npm test" }) }]),
    e("t3", "a4", "message", "toolResult", "\u001b[32m  ✓ 42 passing\u001b[0m (1.2s)", 210, [{ kind: "toolResult", title: "bash", text: "\u001b[32m  ✓ 42 passing\u001b[0m (1.2s)\n\u001b[33m  1 pending\u001b[0m" }]),
    e("c1", "t3", "compaction", undefined, "Compaction: summarized 6 entries", 850, [{ kind: "summary", text: "## Goal\nAdd --json to `ase list`.\n## Done\n- Flag and formatter added; tests pass." }], {
      compaction: { tokensBefore: 142000, firstKeptEntryId: "u2", summary: "## Goal\nAdd --json to `ase list`.\n## Done\n- Flag and formatter added; tests pass.", readFiles: ["src/cli/commands/list.ts", "src/cli/main.ts"], modifiedFiles: ["src/cli/commands/list.ts"] },
    }),
    e("u3", "c1", "message", "user", "Here is what the terminal shows now [image]", 1650, [text("Here is what the terminal shows now"), { kind: "image", title: "screenshot.png", dataUri: PNG, mimeType: "image/png" }, { kind: "image", title: "remote.png", dataUri: "https://example.com/x.png", mimeType: "image/png" }, { kind: "image", title: "js.png", dataUri: "javascript:alert(1)//data:image/png;base64,AAAA", mimeType: "image/png" }]),
    e("m1", "u3", "model_change", undefined, "Model: claude-opus-4-5", 0),
    e("a5", "m1", "message", "assistant", "The table wraps. Two ways to fix it: stream rows or batch them.", 310, [text("The table wraps. Two ways to fix it: stream rows or batch them.")], { estimatedSize: true }),
    // branch 1: streaming (abandoned, labelled)
    e("u4", "a5", "message", "user", "Try the streaming approach", 9, [text("Try the streaming approach")]),
    e("a6", "u4", "message", "assistant", "Streaming needs a cursor; it got messy.", 540, [text("Streaming needs a cursor; it got messy.")], { label: "streaming-attempt" }),
    e("l1", "a6", "label", undefined, "Label streaming-attempt on a6", 0),
    // branch 2: summary of the left branch, then batch (active)
    e("b1", "a5", "branch_summary", undefined, "Branch summary: streaming was abandoned (cursor complexity)", 120, [{ kind: "summary", text: "Streaming was abandoned: the cursor made list.ts twice as long." }]),
    e("u5", "b1", "message", "user", "Use the batch approach instead", 10, [text("Use the batch approach instead")], { label: "batch" }),
    e("a7", "u5", "message", "assistant", "Batching 100 rows at a time.", 260, [text("Batching 100 rows at a time."), { kind: "toolCall", title: "write", text: JSON.stringify({ path: "src/cli/batch.ts", content: "export const BATCH = 100;\n" }, null, 2) }]),
    e("t4", "a7", "message", "toolResult", "Wrote src/cli/batch.ts", 12, [{ kind: "toolResult", title: "write", text: "Wrote 27 bytes to src/cli/batch.ts" }]),
    e("a8", "t4", "message", "assistant", "Batch output works; tests still pass.", 120, [text("Batch output works; tests still pass.")]),
    // branch 3: a failed command
    e("u6", "a5", "message", "user", "What does `rm -rf dist` print?", 11, [text("What does `rm -rf dist` print?")]),
    e("a9", "u6", "message", "assistant", "It failed with a permission error.", 80, [text("It failed with a permission error."), { kind: "toolResult", title: "bash", text: "rm: cannot remove 'dist': Permission denied", isError: true }]),
  ];
  const byId = new Map(entries.map((x) => [x.id, x]));
  const activeLeaf = "a8";
  const onPath = new Set();
  for (let id = activeLeaf; id; id = byId.get(id).parentId) onPath.add(id);
  const summarized = new Set(["u1", "a1", "t1", "a2", "t2", "a3"]);
  for (const x of entries) {
    x.onActivePath = onPath.has(x.id);
    if (x.onActivePath && summarized.has(x.id)) x.boundary = "summarized";
    if (x.id === "u2") x.boundary = "kept-start";
  }
  const bars = [
    { leafId: "a8", title: "Active branch (batch)", total: 148_300, byKind: { summary: 850, user: 9_500, assistant: 31_000, thinking: 12_000, toolCall: 8_000, toolResult: 84_000, image: 1_600, bash: 1_350 }, contextWindow: 200_000, threshold: 183_616, source: "recorded", selected: true, cost: { usd: 1.2345, steps: 12, unpricedSteps: 0 } },
    { leafId: "a6", title: "streaming-attempt", total: 120_900, byKind: { summary: 850, user: 9_000, assistant: 28_000, thinking: 11_000, toolCall: 7_000, toolResult: 63_450, image: 1_600 }, contextWindow: 200_000, threshold: 183_616, source: "estimate", cost: { usd: 0.3, steps: 4, unpricedSteps: 1 } },
    { leafId: "a9", title: "rm -rf dist", total: 190_200, byKind: { summary: 850, user: 9_100, assistant: 40_000, thinking: 20_000, toolCall: 10_000, toolResult: 108_650, image: 1_600 }, contextWindow: 200_000, threshold: 183_616, source: "exact" },
  ];
  const files = [
    { path: "src/cli/commands/list.ts", read: 2, written: 0, edited: 1, fromSummary: ["c1"], openable: true },
    { path: "src/cli/batch.ts", read: 0, written: 1, edited: 0, fromSummary: [], openable: true },
    { path: "/etc/hosts", read: 1, written: 0, edited: 0, fromSummary: [], openable: false },
  ];
  return {
    session: { path: "/home/ana/.pi/agent/sessions/--home-ana-proj--/2026-03-02T09-14-00_ase-json.jsonl", name: "ase list --json", cwd: "/home/ana/proj", version: 3, entryCount: entries.length, defaultLeafId: "a8", problems: [], readOnly: false },
    entries,
    activeLeaf,
    bars,
    files,
    // What the whole session cost: recorded by pi, one step priced, one of a model without a price.
    cost: { usd: 1.8, steps: 20, recordedUsd: 1.5, recordedSteps: 15, pricedUsd: 0.3, pricedSteps: 4, unpricedSteps: 1, unpricedTokens: 2100, unpricedModels: ["local-llama"] },
  };
}

/** Every payload kind the issue names, in previews, labels, details and file paths. */
export const XSS = {
  script: "<script>window.__pwned = 1; alert('script')</script>",
  img: `<img src=x onerror="window.__pwned = 2; alert('img')">`,
  link: "javascript:window.__pwned=3;alert('link')",
  anchor: `<a href="javascript:window.__pwned=4">click me</a>`,
  ansi: "\u001b[31mRED\u001b[0m \u001b]8;;http://evil\u0007osc\u001b]8;;\u0007",
  style: `<style>body{display:none}</style><b onmouseover="window.__pwned=5">bold</b>`,
};

export function xssSession() {
  tick = 0;
  const entries = [
    e("x1", null, "message", "user", XSS.script, 10, [text(XSS.script), text(XSS.img)], { label: XSS.img }),
    e("x2", "x1", "message", "assistant", XSS.img, 10, [text(XSS.link), { kind: "toolCall", title: XSS.anchor, text: XSS.anchor }], { meta: [[XSS.script, XSS.img]] }),
    e("x3", "x2", "message", "toolResult", XSS.ansi, 10, [{ kind: "toolResult", title: "bash", text: XSS.ansi }, { kind: "image", title: XSS.img, dataUri: `javascript:alert(1)`, mimeType: "image/png" }]),
    e("x4", "x3", "message", "user", XSS.link, 10, [text(XSS.style)]),
    e("x5", "x4", "message", "assistant", XSS.anchor, 10, [text(XSS.anchor)]),
    e("x6", "x5", "message", "assistant", XSS.style, 10, [text(XSS.style)]),
  ];
  for (const x of entries) x.onActivePath = true;
  return {
    session: { path: `/tmp/${XSS.script}.jsonl`, name: XSS.img, cwd: XSS.link, version: 3, entryCount: entries.length, defaultLeafId: "x6", problems: [XSS.script], readOnly: true },
    entries,
    activeLeaf: "x6",
    bars: [{ leafId: "x6", title: XSS.script, total: 60, byKind: { user: 30, assistant: 30 }, contextWindow: 200000, threshold: 183616, source: "estimate", selected: true }],
    files: [{ path: XSS.img, read: 1, written: 0, edited: 0, fromSummary: [], openable: true }, { path: XSS.link, read: 0, written: 1, edited: 0, fromSummary: [], openable: false }],
    // Model names are session text too.
    cost: { usd: 0.01, steps: 2, recordedUsd: 0, recordedSteps: 0, pricedUsd: 0.01, pricedSteps: 1, unpricedSteps: 1, unpricedTokens: 10, unpricedModels: [XSS.img] },
  };
}
