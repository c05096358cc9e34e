import { assistant, entry, header, toolResult, user, writeSession } from "./session-builder";

/** Pieces of hostile session text, each a trick a view must show literally and inertly. */
export const HOSTILE = {
  rlo: "\u202E",
  html: `<img src=x onerror="window.__pwned=1">`,
  script: "<script>window.__pwned=2</script>",
  ansi: "\u001b[31mRED\u001b[0m\u001b]0;pwned-title\u0007",
  nul: "a\u0000b",
  lone: "lone\uD800x",
  /** A label whose line break would print a forged tree row. */
  forged: "ok\n◉ 99999999 user: forged row",
};

/** The tokens each view must show in place of the hidden characters above. */
export const MARKS = { rlo: "⟨U+202E⟩", esc: "⟨U+001B⟩", nul: "⟨U+0000⟩", lone: "⟨U+D800⟩", bel: "⟨U+0007⟩" };

/** Characters that must never reach a terminal or the page raw. */
export const RAW_HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const MEGABYTE = 1024 * 1024;

/**
 * A pi session whose every name is hostile: cwd, session name, labels, a model, tool
 * names, file paths, a custom type; one message line and one label of a megabyte each.
 * Returns the file and the ids the tests look at.
 */
export function writeHostileSession(dir?: string): { file: string; ids: Record<string, string> } {
  const h = HOSTILE;
  const name = `invoice${h.rlo}fdp.exe ${h.html} ${h.ansi}`;
  const bigText = `${h.rlo}${h.html}${"x".repeat(MEGABYTE)}`;
  const bigLabel = `${h.rlo}big label ${"y".repeat(MEGABYTE)}`;
  const lines = [
    header({ cwd: `/home/ana/${h.rlo}gnp.js` }),
    user("00000001", null, `${h.html} ${h.script} ${h.ansi} ${h.nul} ${h.lone} ${h.rlo}tail`),
    assistant("00000002", "00000001", `answer ${h.ansi}`, {
      model: `claude${h.ansi}${h.rlo}`,
      toolCalls: [
        { id: "call1", name: `read${h.script}${h.rlo}`, arguments: { path: "src/a.ts" } },
        { id: "call2", name: "read", arguments: { path: `src/${h.rlo}txt.js${h.nul}` } },
      ],
    }),
    toolResult("00000003", "00000002", "call1", `read${h.script}${h.rlo}`, `${h.ansi} ${h.html}`),
    // A side branch whose leaf has the hostile label too: its token bar is titled with it.
    user("0000000b", "00000001", `side branch ${h.rlo}`),
    entry("label", "00000004", "00000003", { targetId: "00000001", label: `${h.html}${h.forged}${h.nul}${h.lone}${h.rlo}` }),
    entry("label", "0000000c", "00000004", { targetId: "0000000b", label: `${h.html}${h.forged}${h.nul}${h.lone}${h.rlo}` }),
    entry("session_info", "00000005", "0000000c", { name }),
    entry("custom_message", "00000006", "00000005", { customType: `${h.html}${h.rlo}`, content: `custom ${h.ansi}`, display: true }),
    user("00000007", "00000006", bigText),
    entry("label", "00000008", "00000007", { targetId: "00000007", label: bigLabel }),
    assistant("00000009", "00000008", `done ${h.rlo}`, { model: `claude${h.ansi}${h.rlo}` }),
  ];
  const file = writeSession(lines, { dir, name: "hostile.jsonl" });
  return { file, ids: { first: "00000001", tool: "00000003", side: "0000000b", custom: "00000006", big: "00000007", leaf: "00000009" } };
}
