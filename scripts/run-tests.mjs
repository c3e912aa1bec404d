// Runs the whole test suite with Vitest, then prints a plain "N passed, N failed" closing line
// (what CI reads) and exits with Vitest's exit code. Extra arguments go to Vitest: `npm run test:unit`
// passes `--project unit`, the tests that need no production build (see vitest.config.ts).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";

mkdirSync(".vitest", { recursive: true });
const report = ".vitest/results.json";
const vitest = spawnSync(
  "node_modules/.bin/vitest",
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: "inherit", env: { ...process.env, NO_COLOR: process.env.NO_COLOR ?? "1" } },
);
if (existsSync(report)) {
  const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = JSON.parse(readFileSync(report, "utf8"));
  const skipped = numPendingTests + numTodoTests;
  console.log(`\ntests: ${numPassedTests} passed, ${numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
}
process.exit(vitest.status ?? 1);
