// The VS Code theme variables the explorer and its elements read, with the values of
// Light+ and Dark+: an exported page is read outside VS Code, so it sets them itself, dark
// or light as the reader's system prefers (prefers-color-scheme). The values live in
// vscode-themes.json, the one list the webview tests set on their page too
// (test/webview/themes.mjs).

import themes from "./vscode-themes.json";

type Vars = Record<string, string>;

const declarations = (vars: Vars) =>
  Object.entries({ ...themes.font, ...vars })
    .map(([k, v]) => `  ${k}: ${v};`)
    .join("\n");

/** The stylesheet that gives every --vscode-* variable a value, dark by default, light when the system prefers it. */
export function themeCss(): string {
  return `:root {\n${declarations(themes.dark)}\n}\n@media (prefers-color-scheme: light) {\n:root {\n${declarations(themes.light)}\n}\n}\nhtml, body { margin: 0; height: 100%; background: var(--vscode-editor-background); color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }\n/* A page has no host to act: the entry actions are left out. */\n.detail-pane .actions { display: none; }\n`;
}
