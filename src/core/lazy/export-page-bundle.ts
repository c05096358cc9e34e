// Entry of dist/export-page.js: the exported HTML page's script (webview/export-page.ts,
// built for the browser and minified) and its stylesheet (the explorer's, the codicons'
// with the font inlined), defined in by esbuild.mjs. A file of its own: only an export
// pays to parse half a megabyte of page. Loaded through lazy-bundles.ts only.

declare const ASE_EXPORT_PAGE: { script: string; css: string };

/** The page's script and stylesheet, as the page carries them inline. */
export const exportPage: { script: string; css: string } = ASE_EXPORT_PAGE;
