import next from "eslint-config-next";
import nextTypescript from "eslint-config-next/typescript";

// The layers point one way (app → lib → lib/db → generated Prisma client); these rules keep it so.
const UI_PACKAGES = ["react", "react-dom", "next", "@tanstack/react-query", "recharts", "react-markdown"];
const noUi = {
  paths: UI_PACKAGES.map((name) => ({ name, message: "lib/ knows nothing of React or Next: put UI code in app/." })),
  patterns: [{ group: UI_PACKAGES.map((name) => `${name}/*`), message: "lib/ knows nothing of React or Next: put UI code in app/." }],
};
const PRISMA_CLIENT = {
  group: ["**/generated/prisma", "**/generated/prisma/*", "@prisma/client", "@prisma/client/*"],
  message: "Only lib/db talks to Prisma: add a function to lib/db that returns plain domain objects.",
};
// What lib/db may not depend on: the executor and everything built on top of the database layer.
const ABOVE_DB = ["rollout", "agent", "model", "cli", "export", "import", "auth", "compare/difference-cache"];
const DB_UPWARD = {
  group: ABOVE_DB.flatMap((name) => [`../${name}`, `../${name}/*`, `@/lib/${name}`, `@/lib/${name}/*`]),
  message: "lib/db is below the executor: shared run vocabulary lives in lib/runs.",
};

// Route folders share code only through app/_components (React) and app/_lib (the rest), never through each
// other's folders.
const ROUTE_FOLDERS = ["api", "compare", "datasets", "optimize", "runs", "skills", "signin", "_home"];
const routeZones = ROUTE_FOLDERS.map((route) => ({
  target: `./app/${route}`,
  from: "./app",
  except: [`./${route}`, "./_components", "./_lib", "./globals.css"],
  message: "Route folders do not import each other: move what two pages share to app/_components or app/_lib.",
}));

const config = [
  ...next,
  ...nextTypescript,
  { ignores: [".next/**", "generated/**", "node_modules/**", "next-env.d.ts", "data/**", "test-results/**", "dist/**"] },
  // `const { line, ...rest } = row` is how a field is left out of a copy (`delete` turns the copy into a slow
  // dictionary-mode object); the named field is unused on purpose.
  { rules: { "@typescript-eslint/no-unused-vars": ["warn", { ignoreRestSiblings: true }] } },
  {
    files: ["lib/**/*.{ts,tsx,mts,mjs}"],
    ignores: ["lib/db/**"],
    rules: { "no-restricted-imports": ["error", { ...noUi, patterns: [...noUi.patterns, PRISMA_CLIENT] }] },
  },
  {
    files: ["lib/db/**/*.{ts,mts,mjs}"],
    rules: { "no-restricted-imports": ["error", { ...noUi, patterns: [...noUi.patterns, DB_UPWARD] }] },
  },
  {
    files: ["app/**/*.{ts,tsx}", "proxy.ts", "instrumentation.ts", "scripts/**/*.{ts,mjs}"],
    rules: { "no-restricted-imports": ["error", { patterns: [PRISMA_CLIENT] }] },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: { "import/no-restricted-paths": ["error", { zones: routeZones }] },
  },
  {
    // One kind of link: app/_components/link.tsx (no prefetching of pages that cannot be prefetched).
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/_components/link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "next/link", message: "Import Link from @/app/_components/link: it does not prefetch (see why there)." }], patterns: [PRISMA_CLIENT] },
      ],
    },
  },
];

export default config;
