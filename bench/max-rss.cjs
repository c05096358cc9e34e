// Preloaded (node --require) into a benchmarked process: on exit it writes the process's
// peak RSS to stderr as one marked line, so the bench reads it whatever the program is.
const { writeSync } = require("node:fs");
process.on("exit", () => {
  writeSync(2, `\nASE_BENCH_MAXRSS ${process.resourceUsage().maxRSS * 1024}\n`);
});
