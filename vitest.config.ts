import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that need the production build (`next build`, 30–90 s) because they run the real server:
 * `*.browser.test.ts` (which also drive Chromium) and `*.server.test.ts`. A test that starts the app
 * (tests/support/app-server.ts) must be named one of these ways; in the "unit" project it fails at once.
 */
const NEEDS_BUILD = ["tests/**/*.browser.test.ts", "tests/**/*.server.test.ts"];

// Two projects: `npm run test:unit` runs "unit" only (the edit-test loop), `npm test` runs both (what CI runs).
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
    ],
  },
});
