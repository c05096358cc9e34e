// What each recorded OpenCode fixture exercises. `script({ prompt, after, body, kind })`
// answers the agent's calls (fake-chat.mjs; `after` = assistant messages after the prompt);
// `drive(ctx)` runs the real build; `legacy` scenarios are driven by the last pre-SQLite build.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const say = (text, reasoning) => ({ text, ...(reasoning ? { reasoning } : {}) });
const calls = (reasoning, ...list) => ({ reasoning, calls: list.map(([name, args]) => ({ name, args })) });

/** The id of the only (or first) root session. */
const rootId = (oc) => oc.sessions().find((s) => !s.parentId).id;

export const SCENARIOS = [
  {
    name: "text",
    about: "two turns, each answer with reasoning",
    script: ({ prompt }) => (/first question/.test(prompt) ? say("Hello! What shall we work on?", "**Greeting** The user says hello.") : say(`Noted: ${prompt.slice(0, 40)}`, "The user asks a follow-up.")),
    async drive({ oc }) {
      await oc.run(["run", "first question: hello"]);
      await oc.run(["run", "--session", rootId(oc), "second question: what is in the notes"]);
    },
  },
  {
    name: "tools",
    about: "three parallel tool calls (read, a read of a missing file that fails, bash), then a write and an edit (a patch)",
    script: ({ prompt, after, project }) => {
      if (/read the notes/.test(prompt)) {
        if (after === 0) return calls("Reading both files and listing.", ["read", { filePath: join(project, "notes.txt") }], ["read", { filePath: join(project, "missing.txt") }], ["bash", { command: "echo hi", description: "Print hi" }]);
        return say("notes.txt holds alpha and beta; missing.txt does not exist.");
      }
      if (/change the files/.test(prompt)) {
        if (after === 0) return calls("Writing a new file.", ["write", { filePath: join(project, "out.txt"), content: "written by the fake model\n" }]);
        if (after === 1) return calls("Editing the notes.", ["edit", { filePath: join(project, "notes.txt"), oldString: "alpha", newString: "gamma" }]);
        return say("Wrote out.txt and changed alpha to gamma.");
      }
      return say(`Noted: ${prompt.slice(0, 40)}`);
    },
    async drive({ oc }) {
      await oc.run(["run", "please read the notes"]);
      await oc.run(["run", "--session", rootId(oc), "now change the files"]);
    },
  },
  {
    name: "compaction",
    about: "auto-compaction: a step reports more prompt tokens than the small context limit allows, OpenCode compacts and continues",
    limit: { context: 20000, output: 2000 },
    script: ({ prompt, after, project }) => {
      if (/big job/.test(prompt)) {
        if (after === 0) return { ...calls("Reading the notes first.", ["read", { filePath: join(project, "notes.txt") }]), usage: { prompt: 19500, completion: 40 } };
        return say("The big job is done.");
      }
      if (/^Continue if you have next steps/.test(prompt)) return say("Nothing left to do after the summary.");
      return say(`Noted: ${prompt.slice(0, 40)}`, "Short answer.");
    },
    async drive({ oc }) {
      await oc.run(["run", "first a small question"]);
      await oc.run(["run", "--session", rootId(oc), "now the big job"]);
    },
  },
  {
    name: "subagent",
    about: "the task tool runs a general sub-agent (a child session) that reads a file",
    script: ({ prompt, after, project }) => {
      if (/survey the notes/.test(prompt)) {
        if (after === 0) return calls("Delegating to a sub-agent.", ["task", { description: "Survey the notes", prompt: "Read notes.txt and report what it holds.", subagent_type: "general" }]);
        return say("The sub-agent reports that the notes hold alpha and beta.");
      }
      if (/^Read notes\.txt and report/.test(prompt)) {
        if (after === 0) return calls("Reading it.", ["read", { filePath: join(project, "notes.txt") }]);
        return say("The notes hold alpha and beta.");
      }
      return say(`Noted: ${prompt.slice(0, 40)}`);
    },
    async drive({ oc }) {
      await oc.run(["run", "survey the notes with a sub-agent"]);
    },
  },
  {
    name: "revert",
    about: "two turns, then the second reverted through `opencode serve` (POST /session/:id/revert, as the TUI does): the revert is pending in the stored session",
    script: ({ prompt, after, project }) => {
      if (/make a file/.test(prompt)) {
        if (after === 0) return calls("Writing it.", ["write", { filePath: join(project, "made.txt"), content: "made\n" }]);
        return say("Made made.txt.");
      }
      return say(`Noted: ${prompt.slice(0, 40)}`, "Short answer.");
    },
    async drive({ oc }) {
      await oc.run(["run", "first say something"]);
      const id = rootId(oc);
      await oc.run(["run", "--session", id, "then make a file"]);
      const [second] = oc.sql(`select id from message where session_id = '${id}' and json_extract(data, '$.role') = 'user' order by time_created desc, id desc limit 1`);
      const server = await oc.serve();
      try {
        const res = await fetch(`${server.url}/session/${id}/revert?directory=${encodeURIComponent(oc.project)}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messageID: second.id }) });
        if (!res.ok) throw new Error(`POST /session/${id}/revert answered ${res.status}: ${await res.text()}`);
      } finally {
        await server.stop();
      }
      const [row] = oc.sql(`select revert from session where id = '${id}'`);
      if (!row?.revert) throw new Error("revert: the session has no pending revert after POST /revert");
    },
  },
  {
    name: "legacy",
    about: "the pre-SQLite storage/ JSON tree, written by the last 1.1 build; the golden is what 1.18.33 sends for it once a 1.2 build has migrated the tree into opencode.db (1.18.33 itself ignores storage/)",
    legacy: true,
    script: ({ prompt, after, project }) => {
      if (/read the notes/.test(prompt) && after === 0) return calls("Reading.", ["read", { filePath: join(project, "notes.txt") }]);
      return say(`Legacy answer: ${prompt.slice(0, 40)}`, "Thinking in the old build.");
    },
    async drive({ oc, legacyBin }) {
      await oc.run(["run", "an old session first prompt"], legacyBin);
      await oc.run(["run", "--continue", "now read the notes"], legacyBin);
    },
    // 1.2 migrates storage/ into opencode.db on its first start, as a user's upgrade did.
    async beforeGoldens({ oc, migrateBin }) {
      await oc.run(["session", "list"], migrateBin);
    },
  },
  {
    name: "wal",
    about: "the first turn checkpointed into opencode.db, the second still only in opencode.db-wal (copied without a checkpoint)",
    wal: true,
    script: ({ prompt }) => say(`WAL answer: ${prompt.slice(0, 40)}`, "Brief."),
    async drive({ oc }) {
      await oc.run(["run", "first turn checkpointed"]);
      execFileSync("sqlite3", [join(oc.data, "opencode.db"), "pragma wal_checkpoint(TRUNCATE);"], { stdio: "ignore" });
      await oc.run(["run", "--session", rootId(oc), "second turn only in the wal"]);
    },
  },
];
