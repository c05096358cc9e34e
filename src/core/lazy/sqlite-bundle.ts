// Entry of dist/sqlite.js: sql.js, SQLite compiled to WebAssembly with the .wasm inlined
// (about 1 MB), in a file of its own so that nothing pays to parse it until an OpenCode
// database is read. Loaded through lazy-bundles.ts only.
import initSqlJs from "sql.js/dist/sql-wasm-inline.js";

export { initSqlJs };
