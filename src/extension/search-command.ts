import * as vscode from "vscode";
import { formatById } from "../core/formats/registry";
import { compilePattern, SearchInputError } from "../core/search/pattern";
import { searchRoots } from "../core/search/search-targets";
import { clipText, visibleText } from "../core/util/visible-text";
import { fileOf, type Target } from "./commands/command-kit";
import type { Log } from "./log";
import { DATE_RANGES, type DateRange, describeRequest, KIND_CHOICES, type KindChoice, resultsMessage, type SearchOutcome, type SearchRequest } from "./search-results";
import { OPEN_HIT_COMMAND, SEARCH_VIEW_ID, type SearchView } from "./search-view";
import type { SessionsView } from "./sessions-view";

export interface SearchCommandDeps {
  log: Log;
  search: SearchView;
  sessions: SessionsView;
  dirs(): Record<string, string>;
}

/** The last pattern and switches, offered again by the next search. */
let last: SearchRequest = { pattern: "" };

/** Why a pattern cannot be searched, for the input box (undefined: it can). */
function patternProblem(pattern: string, regex: boolean, caseSensitive: boolean): string | undefined {
  if (!pattern) return undefined;
  try {
    compilePattern(pattern, { regex, caseSensitive });
    return undefined;
  } catch (err) {
    return err instanceof SearchInputError ? err.message : (err as Error).message;
  }
}

/**
 * Asks for the pattern. Two buttons switch between plain text and a regular
 * expression, and between ignoring and matching case; the prompt says which is on, and a
 * bad regex is named under the box as it is typed.
 */
function askPattern(title: string): Promise<Pick<SearchRequest, "pattern" | "regex" | "caseSensitive"> | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    let regex = !!last.regex;
    let caseSensitive = !!last.caseSensitive;
    const regexButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon("regex"), tooltip: regex ? "Regular expression: on (switch to plain text)" : "Use a regular expression" });
    const caseButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon("case-sensitive"), tooltip: caseSensitive ? "Match case: on (switch to ignoring case)" : "Match case" });
    const show = () => {
      box.buttons = [regexButton(), caseButton()];
      box.prompt = `${regex ? "Regular expression (JavaScript)" : "Plain text"}, ${caseSensitive ? "case must match" : "any case"}. The buttons switch both. Enter: choose filters or search.`;
      box.validationMessage = patternProblem(box.value, regex, caseSensitive);
    };
    box.title = title;
    box.placeholder = "Text to find in prompts, replies, tool calls and output, summaries";
    box.value = last.pattern;
    box.valueSelection = [0, box.value.length];
    show();
    let done = false;
    const finish = (v: Pick<SearchRequest, "pattern" | "regex" | "caseSensitive"> | undefined) => {
      if (done) return;
      done = true;
      resolve(v);
      box.dispose();
    };
    box.onDidChangeValue(() => show());
    box.onDidTriggerButton((b) => {
      if (b.iconPath instanceof vscode.ThemeIcon && b.iconPath.id === "regex") regex = !regex;
      else caseSensitive = !caseSensitive;
      show();
    });
    box.onDidAccept(() => {
      if (!box.value || box.validationMessage) return;
      finish({ pattern: box.value, regex, caseSensitive });
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

type FilterItem = vscode.QuickPickItem & { field?: "run" | "agent" | "project" | "date" | "kind" };

async function pickOne<T>(title: string, items: Array<{ label: string; value: T; description?: string }>, current: T): Promise<T | undefined> {
  const picked = await vscode.window.showQuickPick(
    items.map((i) => ({ ...i, description: i.value === current ? `${i.description ? `${i.description} · ` : ""}current` : i.description })),
    { title },
  );
  return picked?.value;
}

/**
 * The optional filter step: Search (the default, Enter) or one of the filters, each
 * picked from a short list and shown again here, until Search. Escape drops the search.
 */
async function askFilters(deps: SearchCommandDeps, req: SearchRequest, oneFile: boolean): Promise<SearchRequest | undefined> {
  const r = { ...req };
  for (;;) {
    const agentName = r.agent ? formatById(r.agent).agent : "any";
    const items: FilterItem[] = [
      { label: "$(search) Search", description: describeRequest(r), field: "run" },
      { label: "Filters", kind: vscode.QuickPickItemKind.Separator },
      ...(oneFile
        ? []
        : [
            { label: "$(hubot) Agent", description: agentName, field: "agent" as const },
            { label: "$(folder) Project", description: r.project ? visibleText(clipText(r.project, 80)) : "any", field: "project" as const },
          ]),
      { label: "$(calendar) Date", description: DATE_RANGES.find((d) => d.value === (r.date ?? "any"))?.label, field: "date" },
      { label: "$(symbol-misc) Entry kind", description: KIND_CHOICES.find((k) => k.value === (r.kind ?? "any"))?.label, field: "kind" },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: "Search Sessions: filters (optional)", placeHolder: "Enter searches; pick a filter to change it" });
    if (!pick?.field) return undefined;
    if (pick.field === "run") return r;
    if (pick.field === "agent") {
      const agents = searchRoots({ dirs: deps.dirs() }).map((a) => ({ label: formatById(a.agent).agent, description: visibleText(a.root), value: a.agent as string | undefined }));
      const v = await vscode.window.showQuickPick([{ label: "Any agent", value: undefined as string | undefined }, ...agents], { title: "Agent" });
      if (v) r.agent = v.value;
    } else if (pick.field === "project") {
      const projects = deps.sessions.projectCwds().map((p) => ({ label: visibleText(clipText(p, 200)), value: p as string | undefined }));
      const v = await vscode.window.showQuickPick([{ label: "Any project", value: undefined as string | undefined }, ...projects], { title: "Project (sessions whose folder holds the text)" });
      if (v) r.project = v.value;
    } else if (pick.field === "date") {
      const v = await pickOne<DateRange>("Date of the entries", DATE_RANGES.map((d) => ({ label: d.label, value: d.value })), r.date ?? "any");
      if (v) r.date = v;
    } else {
      const v = await pickOne<KindChoice>("Kind of entry", KIND_CHOICES.map((k) => ({ label: k.label, value: k.value })), r.kind ?? "any");
      if (v) r.kind = v;
    }
  }
}

/** Runs a request in the Search Results view and reports a failure or an empty store as a message. */
async function runSearch(deps: SearchCommandDeps, req: SearchRequest): Promise<SearchOutcome> {
  last = { ...req, files: undefined, limit: undefined };
  void vscode.commands.executeCommand(`${SEARCH_VIEW_ID}.focus`);
  const out = await deps.search.search(req);
  const r = deps.search.current;
  if (out.status === "failed") void vscode.window.showErrorMessage(`Search Sessions: ${visibleText(out.error ?? "failed")}`);
  else if (out.status === "done" && r?.noSessionsUnder !== undefined && r.request === req) void vscode.window.showInformationMessage(`Search Sessions: ${resultsMessage(r)}`);
  return out;
}

function isRequest(v: unknown): v is SearchRequest {
  return !!v && typeof v === "object" && typeof (v as SearchRequest).pattern === "string";
}

export function registerSearchCommands(ctx: vscode.ExtensionContext, deps: SearchCommandDeps): void {
  const reg = (id: string, fn: (...args: never[]) => unknown) => ctx.subscriptions.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));

  /** `(request?)`: with a request (code, tests) it runs at once; without, it asks. Resolves when the search ends. */
  reg("agentSessions.searchSessions", async (req?: SearchRequest): Promise<SearchOutcome | undefined> => {
    if (isRequest(req)) return runSearch(deps, req);
    const p = await askPattern("Search Sessions");
    if (!p) return undefined;
    const full = await askFilters(deps, { ...last, ...p, files: undefined }, false);
    return full ? runSearch(deps, full) : undefined;
  });

  /** `(uri, request?)`: the same, in one session file. */
  reg("agentSessions.searchInSession", async (t?: Target, req?: Omit<SearchRequest, "files">): Promise<SearchOutcome | undefined> => {
    const file = fileOf(t);
    if (!file) {
      void vscode.window.showWarningMessage("Search in Session: pick a session in the Sessions view (its context menu).");
      return undefined;
    }
    if (isRequest(req)) return runSearch(deps, { ...req, files: [file] });
    const name = visibleText(clipText(file.split(/[\\/]/).pop() ?? file, 80));
    const p = await askPattern(`Search in ${name}`);
    if (!p) return undefined;
    const full = await askFilters(deps, { pattern: p.pattern, regex: p.regex, caseSensitive: p.caseSensitive, date: last.date, kind: last.kind, files: [file] }, true);
    return full ? runSearch(deps, full) : undefined;
  });

  /** A hit's click: Open Session at its entry; a failure (the entry is gone) is shown by Open Session, not thrown at the tree. */
  reg(OPEN_HIT_COMMAND, async (uri: vscode.Uri, entryId: string) => {
    try {
      await vscode.commands.executeCommand("agentSessions.openSession", uri, entryId);
    } catch {
      // Open Session showed the error and logged it.
    }
  });
  reg("agentSessions.cancelSearch", () => deps.search.cancel());
  reg("agentSessions.clearSearch", () => deps.search.clear());
}
