// VS Code's Light+ / Dark+ / High Contrast (Dark and Light) colours, set on the test page as
// --vscode-* variables the way VS Code injects them into webviews. The values are those of
// src/core/export/vscode-themes.json, the list an exported page sets too (html-theme.ts). A
// colour a theme leaves undefined is left out there too: charts.orange follows the editor's
// find-match highlight, which is #ea5c0055 (alpha) in light and dark and undefined in High Contrast.
import { createRequire } from "node:module";

const themes = createRequire(import.meta.url)("../../src/core/export/vscode-themes.json");

export const THEMES = {
  light: { bodyClass: "vscode-light", vars: { ...themes.font, ...themes.light } },
  dark: { bodyClass: "vscode-dark", vars: { ...themes.font, ...themes.dark } },
  "high-contrast": { bodyClass: "vscode-high-contrast", vars: { ...themes.font, ...themes["high-contrast"] } },
  // VS Code puts both classes on the body of a webview in High Contrast Light.
  "high-contrast-light": { bodyClass: ["vscode-high-contrast", "vscode-high-contrast-light"], vars: { ...themes.font, ...themes["high-contrast-light"] } },
};
