// One self-contained HTML page of a session, readable offline forever: the explorer's own
// webview code (built for the page by esbuild.mjs, webview/export-page.ts) reading the
// session from JSON embedded in the page instead of asking the extension host. Nothing
// here touches the DOM: this file only assembles strings.
//
// The page may fetch nothing: its Content-Security-Policy allows no source at all, only
// the one inline script and the one inline stylesheet by their hashes, and fonts and
// images as data: URLs. Session text sits in <script type="application/json"> blocks
// (never executed) with every "<" written as \u003c, so no content can close the block.
// The stylesheet carries the id the elements look for the codicons by (webview/static-install.ts).

import { createHash } from "node:crypto";
import { loadExportPage } from "../lazy/lazy-bundles";
import { DETAILS_SCRIPT_PREFIX, FIRST_SCRIPT_ID, INDEX_SCRIPT_ID, type PageIndex, type PageSource, SUBAGENTS_SCRIPT_PREFIX } from "./html-data";
import { themeCss } from "./html-theme";

/** Receives the page piece by piece (a file stream, or a list joined into a string). */
export type HtmlSink = (chunk: string) => void | Promise<void>;

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Text for an HTML attribute or element body. */
function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** JSON for a data block: "<" escaped (JSON allows \u003c anywhere a string has it, and nowhere else has "<"). */
export function jsonBlock(id: string, value: unknown): string {
  return `<script type="application/json" id="${escapeHtml(id)}">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>\n`;
}

/** Elements of a long array serialized per piece by writeJsonBlock (a piece stays under V8's large-object size: a larger one is memory mapped for itself). */
const ARRAY_PIECE = 512;

/**
 * The same text as jsonBlock(id, value), given to `sink` in pieces: an object a member at
 * a time, a long array ARRAY_PIECE elements at a time (the page's index is megabytes of
 * JSON on a large session: never one string, nor its escaped copy).
 */
export async function writeJsonBlock(id: string, value: object, sink: HtmlSink): Promise<void> {
  await sink(blockStart(id));
  await writeMembers(Object.entries(value), sink, true);
  await sink(BLOCK_END);
}

const blockStart = (id: string) => `<script type="application/json" id="${escapeHtml(id)}">{`;
const BLOCK_END = "}</script>\n";

/** Members of an object written into an open block (see writeJsonBlock); whether the next one is still the first. */
async function writeMembers(members: Array<[string, unknown]>, sink: HtmlSink, first: boolean): Promise<boolean> {
  const put = (text: string) => sink(text.replace(/</g, "\\u003c"));
  for (const [key, v] of members) {
    // As JSON.stringify: a member whose value has no JSON is left out.
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    await put(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    if (holdsLongArray(v)) {
      // An object with a long array in it (the pool of timeline points): its members in turn, the array in pieces.
      await sink("{");
      await writeMembers(Object.entries(v), sink, true);
      await sink("}");
      continue;
    }
    if (!Array.isArray(v) || v.length <= ARRAY_PIECE) {
      await put(JSON.stringify(v));
      continue;
    }
    for (let k = 0; k < v.length; k += ARRAY_PIECE) {
      const piece = JSON.stringify(v.slice(k, k + ARRAY_PIECE));
      await put(`${k ? "," : "["}${piece.slice(1, -1)}`);
    }
    await sink("]");
  }
  return first;
}

/** A plain object (no toJSON) one of whose members is an array written in pieces. */
function holdsLongArray(v: unknown): v is object {
  if (v === null || typeof v !== "object" || Array.isArray(v) || "toJSON" in v) return false;
  return Object.values(v).some((m) => Array.isArray(m) && m.length > ARRAY_PIECE);
}

/** The page's policy: nothing fetched, the one script and stylesheet by hash. */
export function exportCsp(script: string, style: string): string {
  return ["default-src 'none'", `script-src ${sha256(script)}`, `style-src ${sha256(style)}`, "font-src data:", "img-src data:"].join("; ");
}

/**
 * Writes the page to `sink` in pieces: the head, the first screen, the script, the index
 * (tree, header, branches), the details 256 entries at a time, the sub-agents a call at a time. Only one
 * piece is held at a time, so a 100 MB session is exported in about the memory its index takes.
 */
export async function writeHtmlPage(model: PageSource, sink: HtmlSink): Promise<void> {
  const assets = loadExportPage();
  // A script's text must not hold "</script" (it would end the element): the bundle's strings never need it raw.
  const script = assets.script.replace(/<\/(script)/gi, "<\\/$1");
  const style = `${themeCss()}\n${assets.css}`.replace(/<\/(style)/gi, "<\\/$1");
  // Let go of once written: the details that follow are about the session's size.
  let index: PageIndex | undefined = await model.tree();
  const title = index.init.session.name ?? index.init.session.path.split(/[\\/]/).pop() ?? "session";
  await sink(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(exportCsp(script, style))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="generator" content="Agent Session Explorer">
<title>${escapeHtml(title.slice(0, 300))} · Agent Session Explorer</title>
<style id="vscode-codicon-stylesheet">${style}</style>
</head>
<body class="vscode-dark">
<div id="app" class="app" aria-busy="true"></div>
`);
  // The first screen, then the script: the first rows show before the browser has read the
  // index (megabytes on a large session), the rest once it has parsed it, and a detail
  // waits for its block (the details, about as large as the session, come last).
  await sink(jsonBlock(FIRST_SCRIPT_ID, model.first(index)));
  await sink(`<script>${script}</script>\n`);
  // The index: the tree's members written and let go of before the branches are made (their
  // timelines take megabytes), then the branches and what follows them, in the index's order.
  const bars = index.init.bars;
  const calls = index.subagentCalls.length;
  let members: Array<[string, unknown]> | undefined = Object.entries(index);
  index = undefined;
  const cut = members.findIndex(([k]) => k === "branches");
  if (cut < 0) throw new Error("the page's index has no branches member");
  const late = new Map(members.slice(cut));
  let early: Array<[string, unknown]> | undefined = members.slice(0, cut);
  members = undefined;
  await sink(blockStart(INDEX_SCRIPT_ID));
  const first = await writeMembers(early, sink, true);
  early = undefined;
  const made: Record<string, unknown> = await model.branches(bars);
  await writeMembers([...late].map(([k, v]) => [k, k in made ? made[k] : v]), sink, first);
  await sink(BLOCK_END);
  for (let c = 0; c < model.detailChunks; c++) await sink(jsonBlock(`${DETAILS_SCRIPT_PREFIX}${c}`, await model.detailsChunk(c)));
  for (let k = 0; k < calls; k++) await sink(jsonBlock(`${SUBAGENTS_SCRIPT_PREFIX}${k}`, await model.subagents(k)));
  await sink("</body>\n</html>\n");
}
