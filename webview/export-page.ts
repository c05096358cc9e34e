// The script of an exported HTML page (esbuild.mjs builds it into dist/export-page.js):
// the explorer's own webview, its VS Code API given over the page's embedded data first.
import "./static-install";
import "./main";
