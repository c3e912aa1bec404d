import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that need the production build (`next build`, 30–90 s) because they run the real server:
 * `*.browser.test.ts` (which also drive Chromium) and `*.server.test.ts`. A test that starts the app
 * (tests/support/app-server.ts) must be named one of these ways; in the "unit" project it fails at once.
 */
const NEEDS_BUILD = ["tests/**/*.browser.test.ts", "tests/**/*.server.test.ts"];

/**
 * The database test suite, run a second time on PostgreSQL: the tests of lib/db and those that exercise it directly
 * (the explorer, imports, exports, live counters, the rollout's writes, the optimiser's stored state). Each test's
 * database is a copy of a migrated template on a throwaway cluster (tests/support/pg-global-setup.ts).
 */
export const POSTGRESQL_SUITE = [
  "tests/db/**/*.test.ts",
  "tests/app/*.test.ts",
  "tests/export/*.test.ts",
  "tests/import/*.test.ts",
  "tests/rollout/*.test.ts",
  "tests/optimize/worker.test.ts",
  "tests/optimize/demo-optimization.test.ts",
  "tests/optimize/skillopt-export.test.ts",
  "tests/cli/cli.test.ts",
  "tests/cli/kill-resume.test.ts",
  "tests/cli/secrets.test.ts",
];
/** Not run again on PostgreSQL: SQLite's own locking and new files, and files of the folders above that use no database. */
const NOT_ON_POSTGRESQL = ["tests/db/write-lock-first.test.ts", "tests/db/new-database.test.ts", "tests/app/format.test.ts", "tests/app/follow-delay.test.ts", "tests/rollout/select-items.test.ts"];

// Three projects: `npm run test:unit` runs "unit" only (the edit-test loop), `npm test` runs all (what CI runs).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...NEEDS_BUILD],
          // Read by ensureBuild() in tests/support/app-server.ts.
          env: { SKILLBOARD_TEST_PROJECT: "unit" },
        },
      },
      { extends: true, test: { name: "app", include: NEEDS_BUILD } },
      {
        extends: true,
        test: {
          name: "db-postgresql",
          include: POSTGRESQL_SUITE,
          exclude: [...configDefaults.exclude, ...NEEDS_BUILD, ...NOT_ON_POSTGRESQL],
          globalSetup: ["./tests/support/pg-global-setup.ts"],
          env: { SKILLBOARD_TEST_PROJECT: "unit", SKILLBOARD_TEST_DATABASE: "postgresql" },
        },
      },
    ],
  },
});
