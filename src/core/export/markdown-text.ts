// Session text placed in Markdown that GitHub (or any CommonMark reader) renders. Session
// text is untrusted: it must not open HTML, close our <details>, forge a heading of the
// transcript or leave a code fence open for everything after it.

/** Text for an HTML context (a <summary>): no tag, no entity, no attribute break. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** One line of text for a <summary> or a heading: line breaks folded, HTML escaped, Markdown's inline marks escaped. */
export function oneLine(s: string, max = 200): string {
  const flat = s.replace(/\s+/g, " ").trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return escapeHtml(cut).replace(/([\\`*_[\]#|~])/g, "\\$1");
}

function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** A fenced code block that nothing inside can close: its fence is longer than any run of backticks in the text. */
export function fenced(text: string, info = ""): string {
  const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1));
  // An info string may not hold a backtick; ours are plain words anyway.
  return `${fence}${info.replace(/[`\s]/g, "")}\n${text.endsWith("\n") ? text : `${text}\n`}${fence}`;
}

/** Inline code (a path, an id): backticks around that no backtick inside can end, on one line. */
export function inlineCode(s: string): string {
  const flat = s.replace(/[\r\n]+/g, " ");
  const ticks = "`".repeat(longestRun(flat, "`") + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * A message's own Markdown, kept readable but harmless: outside its code fences every
 * `<` is escaped (no HTML, no `</details>`) and a line starting a heading is escaped (no
 * forged turn); its code fences are left as written, and one left open is closed so it
 * cannot swallow the rest of the transcript.
 */
export function prose(text: string): string {
  const out: string[] = [];
  let open: { ch: string; len: number } | undefined;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const f = FENCE_LINE.exec(line);
    if (open) {
      // A fence closes on the same character, at least as long, with nothing after it.
      if (f && f[1][0] === open.ch && f[1].length >= open.len && !f[2].trim()) open = undefined;
      out.push(line);
      continue;
    }
    if (f && !(f[1][0] === "`" && f[2].includes("`"))) {
      open = { ch: f[1][0], len: f[1].length };
      out.push(line);
      continue;
    }
    out.push(line.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/^( {0,3})#/, "$1\\#"));
  }
  if (open) out.push(open.ch.repeat(open.len));
  return out.join("\n");
}

/** A collapsed section: the summary is HTML already escaped; the body is Markdown (blank lines around it so it renders). */
export function details(summaryHtml: string, body: string): string {
  return `<details>\n<summary>${summaryHtml}</summary>\n\n${body}\n\n</details>`;
}
