// The sub-agents of an exported page (issue 30): each call's sub-agents as the explorer
// shows them expanded under it, read by the explorer's own nesting (subagent-rows.ts): their
// rows for each filter and the details of each row, redacted. One call at a time, its
// transcripts dropped once written.

import type { PageDetails, PageSubagents } from "../core/export/html-data";
import type { Scrubber } from "../core/export/scrubber";
import type { SessionReader } from "../core/session/session-reader";
import type { Row, RowFilter, SubagentView } from "../protocol";
import { packDetails } from "./page-details";
import type { ShownRow } from "./row-view";
import { SubagentNesting } from "./subagent-rows";

const FILTERS: readonly RowFilter[] = ["user", "default", "all"];

export class PageSubagentExport {
  private readonly nesting = new SubagentNesting();

  constructor(
    private readonly session: SessionReader,
    private readonly scrub: Scrubber,
  ) {}

  /** The sub-agents entry i started, as its row's cue names them (redacted), or undefined when none. */
  cue(i: number): SubagentView[] | undefined {
    const cue = this.nesting.cue(this.session, i);
    return cue && this.scrub.deep(cue.agents, this.session.metas[i].id, "sub-agent");
  }

  /** The rows and details of the sub-agents entry i started, its call row taken at depth 0. */
  async call(i: number): Promise<PageSubagents> {
    const s = this.session;
    const callId = s.metas[i].id;
    await this.nesting.expand(s, i, true, undefined);
    try {
      const call: ShownRow = { index: i, prefix: "", depth: 0, onActivePath: false, isLeaf: false, isActiveLeaf: false };
      const rows = {} as Record<RowFilter, Row[]>;
      const details: Record<string, PageDetails> = {};
      for (const filter of FILTERS) {
        // The call's row first, then its sub-agents' rows (the nesting names their details until the next splice).
        const nested = this.nesting
          .splice(s, [call], filter)
          .slice(1)
          .map((r) => r.nested as Row);
        rows[filter] = nested.map((r) => this.scrub.deep(r, callId, "sub-agent row"));
        for (const r of nested) {
          const id = this.scrub.id(r.id);
          const d = details[id] === undefined ? this.nesting.details(r.id) : undefined;
          if (d) details[id] = packDetails(d, callId, this.scrub, (k) => (this.nesting.details(r.id, k) ?? d).blocks[k]);
        }
      }
      return { agents: this.cue(i) ?? [], rows, details };
    } finally {
      await this.nesting.expand(s, i, false, undefined);
    }
  }
}
