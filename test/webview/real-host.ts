import { fileActivity } from "../../src/core/files/file-ops";
import type { InitMessage, WebviewToHost } from "../../src/protocol";
import { Session } from "../../src/core/formats/pi/pi-session";
import { instantTokens } from "../../src/core/tokens/entry-tokens";
import { entryDetails } from "../../src/explorer/entry-details";
import { RowView, sessionInfoView } from "../../src/explorer/row-view";
import { tokenBars } from "../../src/explorer/token-bars";

/**
 * A host for the webview tests backed by the real core: the same rows, details, bars and
 * files the extension host serves, computed from a real session file. It answers the
 * protocol like fake-host.mjs's hosts do (init(), answer(message), log).
 */
export async function createRealHost(path: string) {
  const session = await Session.load(path);
  const view = new RowView(session);
  const table = instantTokens(session);
  const bars = () => tokenBars(session, table, view.selectedLeaf);
  return {
    log: [] as unknown[],
    session,
    init(): InitMessage {
      return { type: "init", session: sessionInfoView(session, true), rowCount: view.rowCount, filter: view.filter, bars: bars() };
    },
    answer(m: WebviewToHost): unknown {
      switch (m.type) {
        case "rows":
          return { start: m.start, rows: view.page(m.start, m.count), rowCount: view.rowCount };
        case "details": {
          const i = session.requireIndex(m.id);
          return entryDetails(session.entryAt(i), session.metas[i], session.tree.labels.get(m.id), m.fullBlock);
        }
        case "setFilter":
          return { rowCount: view.setFilter(m.filter) };
        case "toggleFold":
          return { rowCount: view.toggleFold(m.id) };
        case "search":
          return { matches: view.search(m.query) };
        case "select": {
          const { entry, rowIndex } = view.select(m.id);
          const files = fileActivity(session, session.tree.path(entry)).map((a) => ({ ...a, openable: false }));
          return { bars: bars(), files, rowIndex };
        }
        default:
          throw new Error(`unexpected ${m.type}`);
      }
    },
  };
}

// The hostile session of the CLI tests, for the webview test that runs it through the real core.
export { HOSTILE, MARKS, MEGABYTE, RAW_HIDDEN, writeHostileSession } from "../helpers/hostile-session";
