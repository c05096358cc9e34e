/**
 * The Session Explorer page. Pure (no DOM, no vscode import) so the host and the
 * webview tests build the very same HTML under the very same CSP.
 */
export interface ExplorerHtmlOptions {
  /** webview.cspSource */
  cspSource: string;
  /** Fresh per load; the only way a script runs. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** node_modules/@vscode/codicons/dist/codicon.css as a webview URI. */
  codiconUri: string;
  /** Only if @vscode-elements is shipped as its own module instead of in the bundle. */
  elementsUri?: string;
  title?: string;
  /**
   * The session file. The page saves it in its state at once, so that VS Code's panel
   * serializer can reopen the panel even when the window is reloaded before the
   * session has loaded (the state once waited for init, and a reload right after
   * opening a large session lost the panel).
   */
  file?: string;
}

function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function explorerCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src data: ${cspSource}`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
}

export function explorerHtml(o: ExplorerHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(o.nonce)) throw new Error("nonce must be at least 16 base64/hex characters");
  const nonce = attr(o.nonce);
  const elements = o.elementsUri ? `\n    <script type="module" nonce="${nonce}" src="${attr(o.elementsUri)}"></script>` : "";
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${attr(explorerCsp(o.cspSource, o.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link rel="stylesheet" id="vscode-codicon-stylesheet" href="${attr(o.codiconUri)}">
    <link rel="stylesheet" href="${attr(o.styleUri)}">
    <title>${attr(o.title ?? "Session Explorer")}</title>
  </head>
  <body${o.file === undefined ? "" : ` data-session-file="${attr(o.file)}"`}>
    <div id="app" class="app" aria-busy="true"></div>${elements}
    <script nonce="${nonce}" src="${attr(o.scriptUri)}"></script>
  </body>
</html>
`;
}
