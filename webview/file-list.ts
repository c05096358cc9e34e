import type { FileActivityView } from "../src/protocol";
import { clear, codicon, el, oneLine, TITLE_MAX } from "./dom";

function counts(f: FileActivityView): string {
  const parts: string[] = [];
  if (f.read) parts.push(`read ${f.read}`);
  if (f.written) parts.push(`written ${f.written}`);
  if (f.edited) parts.push(`edited ${f.edited}`);
  if (f.fromSummary.length) parts.push(`in ${f.fromSummary.length} summar${f.fromSummary.length === 1 ? "y" : "ies"}`);
  return parts.join(", ");
}

function icon(f: FileActivityView): string {
  if (f.written) return "new-file";
  if (f.edited) return "edit";
  return "eye";
}

/** Files read, written and edited along the selected path; openable ones open in the editor. */
export class FileList {
  readonly element = el("section", { className: "file-list", attrs: { "aria-label": "File operations" } });

  constructor(private readonly openFile: (path: string) => void) {}

  render(files: FileActivityView[]): void {
    clear(this.element);
    if (files.length === 0) {
      this.element.appendChild(el("div", { className: "empty", text: "No file operations on this path." }));
      return;
    }
    const list = el("ul", { className: "files" });
    for (const f of files) {
      const badges = el("span", { className: "file-counts" }, [
        ...(f.read ? [el("span", { className: "count count-read", text: `R${f.read}`, title: `read ${f.read}×` })] : []),
        ...(f.edited ? [el("span", { className: "count count-edit", text: `E${f.edited}`, title: `edited ${f.edited}×` })] : []),
        ...(f.written ? [el("span", { className: "count count-write", text: `W${f.written}`, title: `written ${f.written}×` })] : []),
        ...(f.fromSummary.length ? [el("span", { className: "count count-summary", text: "S", title: "mentioned in a compaction summary" })] : []),
      ]);
      const name = el(f.openable ? "button" : "span", { className: `file${f.openable ? " openable" : ""}`, title: f.path }, [
        codicon(icon(f)),
        el("span", { className: "file-path", text: oneLine(f.path, 1000) }),
      ]);
      name.setAttribute("aria-label", `${oneLine(f.path, TITLE_MAX)}: ${counts(f)}${f.openable ? ", open in editor" : ", not in the workspace"}`);
      if (f.openable) {
        name.setAttribute("type", "button");
        name.addEventListener("click", () => this.openFile(f.path));
      }
      list.appendChild(el("li", {}, [name, badges]));
    }
    this.element.appendChild(list);
  }
}
