// What each recorded fixture exercises. `script(prompt, modelTurnsAfter, body)` answers the
// main agent's calls (see fake-api.mjs); `drive` runs the CLI; `after` may rewrite the store.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { until } from "./tty.mjs";

const text = (t) => ({ parts: [{ text: t }] });
const thought = (t) => ({ text: t, thought: true });
const call = (name, args) => ({ functionCall: { name, args } });

/** Waits until the clock's minute changes (a resume in a new minute writes a stub file). */
async function nextMinute() {
  const m = new Date().getMinutes();
  while (new Date().getMinutes() === m) await new Promise((r) => setTimeout(r, 500));
}

/** The session files under a home's chats folders. */
function chatFiles(home) {
  const tmp = join(home, ".gemini", "tmp");
  return readdirSync(tmp).flatMap((slug) => {
    const chats = join(tmp, slug, "chats");
    try {
      return readdirSync(chats).filter((f) => /^session-.*\.jsonl$/.test(f)).map((f) => join(chats, f));
    } catch {
      return [];
    }
  });
}

/** Replays a JSONL session the simple way (metadata merged, ids replace, $set.messages resets). */
function replayForLegacy(path) {
  let meta = {};
  let messages = [];
  for (const line of readFileSync(path, "utf8").split("\n").filter(Boolean)) {
    const r = JSON.parse(line);
    if (typeof r.sessionId === "string" && typeof r.projectHash === "string") meta = { ...meta, ...r };
    else if (r.$set) {
      const { messages: list, ...rest } = r.$set;
      meta = { ...meta, ...rest };
      if (Array.isArray(list)) messages = list;
    } else if (r.$rewindTo) {
      const at = messages.findIndex((m) => m.id === r.$rewindTo);
      messages = at < 0 ? [] : messages.slice(0, at);
    } else if (typeof r.id === "string") {
      const at = messages.findIndex((m) => m.id === r.id);
      if (at < 0) messages.push(r);
      else messages[at] = r;
    }
  }
  return { ...meta, messages };
}

/** All session lines written so far, from every chat file of the home. */
const chatText = (home) => chatFiles(home).map((f) => readFileSync(f, "utf8")).join("\n");

/**
 * Types a prompt in the interactive UI and waits until its answer is in the session file
 * (the fake API answers `Noted: <prompt>`).
 */
async function ask(ui, home, prompt) {
  ui.type(prompt);
  await ui.waitFor(new RegExp(prompt), `"${prompt}" typed`);
  ui.keys("Enter");
  await until(() => chatText(home).includes(`"Noted: ${prompt}"`), `the answer to "${prompt}" in the session file`);
}

export const SCENARIOS = [
  {
    name: "text",
    script: (p) => (/first/.test(p) ? { parts: [thought("**Greeting** The user says hello."), { text: "Hello! What shall we work on?" }] } : text(`Noted: ${p}`)),
    async drive({ run }) {
      await run(["-p", "first question: hello"]);
      await run(["--resume", "latest", "-p", "second question: list the notes"]);
    },
  },
  {
    name: "tools",
    script: (p, after) => {
      if (/read the notes/.test(p) && after === 0) return { parts: [thought("**Reading** I should read notes.txt."), call("read_file", { file_path: "notes.txt" })] };
      if (/run ls/.test(p) && after === 0) return { parts: [call("run_shell_command", { command: "ls", description: "list files" })] };
      return text(`Done: ${p.slice(0, 30)}`);
    },
    async drive({ run }) {
      await run(["-p", "please read the notes"]);
      await run(["--resume", "latest", "-p", "now run ls"]);
    },
  },
  {
    name: "parallel-and-errors",
    script: (p, after) => {
      if (/both files/.test(p) && after === 0) return { parts: [call("read_file", { file_path: "notes.txt" }), call("read_file", { file_path: "missing.txt" }), call("run_shell_command", { command: "exit 3" })] };
      if (/unknown tool/.test(p) && after === 0) return { parts: [call("no_such_tool", { x: 1 })] };
      return text(`After the calls: ${p.slice(0, 30)}`);
    },
    async drive({ run }) {
      await run(["-p", "read both files and fail a command"]);
      await run(["--resume", "latest", "-p", "call an unknown tool"]);
    },
  },
  {
    name: "compression",
    script: (p, after) => {
      if (/big job/.test(p) && after === 0) return { parts: [call("read_file", { file_path: "notes.txt" })], usage: { promptTokenCount: 2_000_000, totalTokenCount: 2_000_020 } };
      if (/big job/.test(p) && after === 1) return { parts: [call("run_shell_command", { command: "echo step" })] };
      return text(`Finished: ${p.slice(0, 30)}`);
    },
    async drive({ run }) {
      await run(["-p", "first a small question"]);
      await run(["--resume", "latest", "-p", "now the big job"]);
    },
  },
  {
    name: "subagent",
    script: (p, after, body) => {
      const sys = JSON.stringify(body.systemInstruction ?? "");
      const names = (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
      if (names.includes("complete_task")) return after === 0 ? { parts: [call("read_file", { file_path: "notes.txt" })] } : { parts: [call("complete_task", { result: { response: "The notes hold alpha and beta." } })] };
      if (/survey/.test(p) && after === 0) return { parts: [call("invoke_agent", { agent_name: "generalist", prompt: "Read notes.txt and report what it holds." })] };
      return text(`Summary from the sub-agent noted (${sys.length > 0 ? "main" : "?"}).`);
    },
    async drive({ run }) {
      await run(["-p", "survey the notes with a sub-agent"]);
    },
  },
  {
    name: "stub",
    script: (p) => text(`Noted: ${p.slice(0, 30)}`),
    async drive({ run }) {
      await run(["-p", "a first prompt"]);
      await nextMinute();
      await run(["--resume", "latest", "-p", "a prompt in the next minute"]);
    },
  },
  {
    name: "legacy-json",
    script: (p) => text(`Legacy answer: ${p.slice(0, 30)}`),
    async drive({ run }) {
      await run(["-p", "an old session's first prompt"]);
      await run(["--resume", "latest", "-p", "and its second"]);
    },
    // The JSONL the real build wrote, rewritten into the one-object .json shape of older builds.
    after({ home }) {
      for (const file of chatFiles(home)) {
        writeFileSync(file.replace(/\.jsonl$/, ".json"), JSON.stringify(replayForLegacy(file), null, 2));
        rmSync(file);
      }
    },
  },
  {
    // /rewind exists only in the interactive UI: two turns, rewind to the second prompt (the
    // first turn stays, the second becomes an abandoned branch), then a third turn.
    name: "rewind",
    script: (p) => text(`Noted: ${p}`),
    async drive({ interactive, home, requests }) {
      const ui = await interactive([]);
      try {
        await ask(ui, home, "first turn: say alpha");
        await ask(ui, home, "second turn: say beta");
        ui.type("/rewind");
        await ui.waitFor(/rewind\s+Jump back/, "the /rewind completion");
        ui.keys("Enter");
        await ui.waitFor(/Stay at current position/, "the rewind picker");
        ui.keys("Up");
        await ui.waitFor(/● second turn: say beta/, "the second prompt selected in the picker");
        ui.keys("Enter");
        await ui.waitFor(/Confirm Rewind/, "the rewind confirmation");
        ui.keys("Enter");
        await until(() => chatText(home).includes('"$rewindTo"'), "a $rewindTo line in the session file");
        // The picker puts the rewound prompt back in the input box: clear it before the next turn.
        await ui.waitFor(/\* second turn: say beta/, "the rewound prompt back in the input box");
        ui.keys("C-e", "C-u");
        await ui.waitFor(/Type your message/, "an empty input box");
        const before = requests().length;
        await ask(ui, home, "third turn after the rewind: say gamma");
        await ui.quit();
        const sent = requests().slice(before).find((r) => JSON.stringify(r.body.contents).includes("say gamma"));
        if (!sent) throw new Error("rewind: no main request carried the third prompt");
        // What the live process sent after the rewind (its last part is the new prompt).
        return { "sent-after-rewind.json": { messages: sent.body.contents } };
      } finally {
        ui.close();
      }
    },
  },
];
