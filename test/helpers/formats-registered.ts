/*
 * Injected into every test bundle (esbuild.mjs): a session a test builds by hand
 * (MemorySession, pi's Session.load) finds its format in the registry's table
 * (src/core/formats/format-table.ts), as every session the CLI and the extension open
 * does, whatever else the test imports.
 */
import "../../src/core/formats/registry";
