// What each recorded fixture exercises. `script(prompt, modelTurnsAfter, body)` answers the
// main agent's calls (see fake-api.mjs); `drive` runs the CLI; `after` may rewrite the store.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
];
