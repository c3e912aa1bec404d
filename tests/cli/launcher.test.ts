// `npm run -s cli` runs scripts/cli.mjs: the CLI's esbuild bundle, rebuilt when a source is newer than it, so a
// start costs no TypeScript compilation and an edit to lib/ is never run stale.
import Database from "better-sqlite3";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deserialize } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_NODE_FLAGS } from "@/lib/cli/node-flags";
import { WARM_COMPILE_CACHE_COMMAND } from "@/lib/cli/warm-compile-cache";
import { listMigrations, MIGRATIONS_DIR } from "@/lib/db/migrate";
import { INITIAL_SKILL, MINI_DATASET, TRAINED_SKILL } from "../support/cli";
import { faultFirstN, startFakeOpenAIServer } from "../support/fake-openai-server";
import { createTestDb } from "../support/test-db";

/** Names the build to run (a folder of dist/cli/, the CLI split into chunks by command). */
const CURRENT = "dist/cli/CURRENT";
const currentBuild = () => readFileSync(CURRENT, "utf8").trim();
const t = createTestDb();
afterAll(() => t.close());

function launch(args: string[]) {
  return spawnSync(process.execPath, ["scripts/cli.mjs", ...args], { env: { ...process.env, DATABASE_URL: t.url }, encoding: "utf8" });
}

describe("CLI launcher", () => {
  it("runs the CLI from its bundle, with data on stdout only", () => {
    const added = launch(["skill", "add", "tests/fixtures/skills/searchqa-trained.md"]);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout.trim()).toMatch(/^\d+$/);
    const listed = launch(["skill", "list"]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout.trim())).toMatchObject({ skill: "searchqa-trained", version: 1 });
    expect(statSync(`dist/cli/${currentBuild()}/main.mjs`).isFile()).toBe(true);
  });

  it("prints the usage on stdout when asked for it, and on stderr (exit 2) when no command is given", () => {
    for (const asked of ["help", "--help", "-h"]) {
      const help = launch([asked]);
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^usage: npm run -s cli -- <command>/);
      expect(help.stdout).toContain("skill list");
      expect(help.stderr).toBe("");
    }
    const bare = launch([]);
    expect(bare.status).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toMatch(/^usage: npm run -s cli -- <command>/);
  });

  it("runs as `npx skillboard` too (package.json bin), the same CLI", () => {
    const listed = spawnSync("npx", ["--no-install", "skillboard", "skill", "list"], { env: { ...process.env, DATABASE_URL: t.url }, encoding: "utf8" });
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout.trim())).toMatchObject({ skill: "searchqa-trained", version: 1 });
  });

  it("loads Prisma's query compilers from their wasm files in the build, not from the 2.5 MB base64 modules", () => {
    expect(launch(["skill", "list"]).status).toBe(0);
    const files = readdirSync(`dist/cli/${currentBuild()}`);
    expect(files.filter((name) => name.includes("wasm-base64"))).toEqual([]);
    for (const engine of ["sqlite", "postgresql"]) {
      const wasm = readFileSync(`dist/cli/${currentBuild()}/query_compiler_bg.${engine}.wasm`);
      expect(wasm.subarray(0, 4)).toEqual(Buffer.from("\0asm", "latin1"));
      expect(() => new WebAssembly.Module(wasm)).not.toThrow();
    }
  });

  it("is built and compiled by `npm run build`: the first commands after it build and compile nothing", () => {
    const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.build).toMatch(new RegExp(` && npm run -s cli -- ${WARM_COMPILE_CACHE_COMMAND}$`));
    // Started as npm starts it (the compile cache is kept per set of V8 flags), after an edit to lib/ or an install.
    const start = (args: string[]) =>
      spawnSync(process.execPath, [...CLI_NODE_FLAGS, "scripts/cli.mjs", ...args], { env: { ...process.env, DATABASE_URL: t.url }, encoding: "utf8" });
    const past = new Date("2000-01-01T00:00:00Z");
    utimesSync(CURRENT, past, past);
    const before = currentBuild();
    const warmed = start([WARM_COMPILE_CACHE_COMMAND]);
    expect(warmed.status, warmed.stderr).toBe(0);
    expect(warmed.stdout).toBe("");
    const build = currentBuild();
    expect(build).not.toBe(before);
    // V8's files; Prisma's query plans and the new database's template, kept beside them, are not compiled code (the
    // tests below). The warm-up makes the template, so the first command on a new database need not.
    const kept = () => readdirSync(`dist/cli/${build}/compile-cache`, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const cached = () => kept().filter((entry) => !entry.name.startsWith("query-plans-") && !entry.name.startsWith("new-database-")).length;
    expect(kept().filter((entry) => /^new-database-[0-9a-f]+\.sqlite$/.test(entry.name))).toHaveLength(1);
    const afterWarming = cached();
    // Every module of the bundle, and the SQLite driver's modules in node_modules.
    expect(afterWarming).toBeGreaterThan(readdirSync(`dist/cli/${build}`).filter((name) => name.endsWith(".mjs")).length);
    for (const args of [["skill", "list"], ["dataset", "list"], ["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--backend", "baseline", "--limit", "2"]]) {
      const ran = start(args);
      expect(ran.status, ran.stderr).toBe(0);
    }
    expect(currentBuild()).toBe(build);
    expect(cached()).toBe(afterWarming);
  });

  it("runs a model from the bundle without loading undici (Headers: lib/model/fetch-headers.ts) or the ES loader's CommonJS scanner, retries included", async () => {
    // Each question is refused once with a 429 and its Retry-After: the SDK reads the response's headers and cancels
    // its body before it retries.
    const server = await startFakeOpenAIServer({ requireApiKey: "sk-launcher", faults: faultFirstN(1, { kind: "status", status: 429, retryAfter: "0" }) });
    const dir = mkdtempSync(join(tmpdir(), "skillboard-launcher-"));
    try {
      // Node's list of the built-in modules it loaded, written as the CLI exits.
      const report = join(dir, "report.mjs");
      writeFileSync(report, 'import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(process.env.LOADED_MODULES_FILE, process.moduleLoadList.join("\\n")));\n');
      const loadedFile = join(dir, "loaded.txt");
      const args = ["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--model", "m1", "--concurrency", "4"];
      const child = spawn(process.execPath, ["--import", report, "scripts/cli.mjs", ...args], {
        env: { ...process.env, DATABASE_URL: t.url, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-launcher", LOADED_MODULES_FILE: loadedFile },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const code = await new Promise((resolve) => child.on("close", resolve));
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout.trim())).toMatchObject({ status: "completed", n: 12, errors: 0 });
      expect(server.stats().requests).toBe(24);
      expect(server.requests.filter((request) => request.fault === "status")).toHaveLength(12);
      expect(server.requests[0]!.headers).toMatchObject({ authorization: "[redacted]", "content-type": "application/json" });
      const loaded = readFileSync(loadedFile, "utf8").split("\n");
      expect(loaded).toContain("NativeModule http");
      expect(loaded.filter((name) => /undici|\btls\b|http2/.test(name))).toEqual([]);
      // No CommonJS package is loaded through Node's ES loader, which scans each one's source for its exports
      // (better-sqlite3 is required: scripts/cli-bundle/better-sqlite3.mjs).
      expect(loaded.filter((name) => name.includes("cjs-module-lexer"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });

  it("rebuilds a bundle older than its sources before running it, into a folder of its own, and keeps the last two", () => {
    expect(launch(["skill", "list"]).status).toBe(0);
    const builds = [currentBuild()];
    const rebuild = () => {
      const past = new Date("2000-01-01T00:00:00Z");
      utimesSync(CURRENT, past, past);
      const listed = launch(["skill", "list"]);
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout.trim())).toMatchObject({ skill: "searchqa-trained", version: 1 });
      expect(statSync(CURRENT).mtimeMs).toBeGreaterThan(past.getTime() + 1000);
      builds.push(currentBuild());
    };
    const kept = () => readdirSync("dist/cli").filter((name) => name !== "CURRENT");
    rebuild();
    rebuild();
    expect(new Set(builds).size).toBe(3);
    // Two builds back, but superseded a moment ago: another process may still be starting from it (or still importing
    // its chunks), so it stays.
    expect(kept()).toEqual(expect.arrayContaining(builds));
    // Once the build that superseded it is more than a minute old, the next rebuild removes it; the one before the
    // current stays, whatever its age.
    const longAgo = new Date(Date.now() - 5 * 60_000);
    utimesSync(`dist/cli/${builds[1]}/main.mjs`, longAgo, longAgo);
    utimesSync(`dist/cli/${builds[2]}/main.mjs`, longAgo, longAgo);
    rebuild();
    expect(kept()).toEqual(expect.arrayContaining(builds.slice(2)));
    expect(kept()).not.toContain(builds[0]);
    expect(kept()).not.toContain(builds[1]);
  });

  it("rebuilds when a file deep in lib/ is newer than the bundle, and not when none is", () => {
    expect(launch(["skill", "list"]).status).toBe(0);
    const before = currentBuild();
    expect(launch(["skill", "list"]).status).toBe(0);
    expect(currentBuild()).toBe(before);
    // An edit two folders down, a second after the bundle was switched to (the file's own time is put back after).
    const source = "lib/db/result-writer.ts";
    const { atime, mtime } = statSync(source);
    const edited = new Date(statSync(CURRENT).mtimeMs + 1000);
    utimesSync(source, edited, edited);
    try {
      const listed = launch(["skill", "list"]);
      expect(listed.status, listed.stderr).toBe(0);
      expect(currentBuild()).not.toBe(before);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });
});

describe("a new database, copied from the build's migrated empty one (lib/db/new-database.ts)", () => {
  it("is made once, with every migration announced once, however many processes start on it together", async () => {
    const folder = mkdtempSync(join(tmpdir(), "skillboard-new-database-"));
    // A compile cache of this test's own: the template is not there yet, and the racing processes make it too.
    const cache = mkdtempSync(join(tmpdir(), "skillboard-compile-cache-"));
    try {
      const path = join(folder, "new.db");
      const start = () => new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ["scripts/cli.mjs", "skill", "list"], {
          env: { ...process.env, DATABASE_URL: `file:${path}`, NODE_COMPILE_CACHE: cache },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
      const started = await Promise.all([start(), start(), start(), start()]);
      for (const { status, stdout, stderr } of started) {
        expect(status, stderr).toBe(0);
        expect(stdout).toBe("");
      }
      const migrations = listMigrations(MIGRATIONS_DIR);
      const announced = started.flatMap(({ stderr }) => stderr.match(/applied database migration \S+/g) ?? []).sort();
      expect(announced).toEqual(migrations.map((name) => `applied database migration ${name}`));
      expect(readdirSync(cache, { recursive: true, encoding: "utf8" }).filter((name) => /new-database-[0-9a-f]+\.sqlite$/.test(name))).toHaveLength(1);
      // No copy or draft left behind, and the database is whole, with every migration recorded.
      expect(readdirSync(folder).filter((name) => !/^new\.db(-wal|-shm)?$/.test(name))).toEqual([]);
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(db.prepare(`SELECT migration_name FROM "_prisma_migrations" ORDER BY 1`).all()).toEqual(migrations.map((name) => ({ migration_name: name })));
      } finally {
        db.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
  });
});

describe("Prisma's query plans, kept between starts (lib/db/query-plan-store.ts)", () => {
  it("keeps the plans of a command's reads beside its compiled code, and answers from them with the data as it is now", async () => {
    const db = createTestDb();
    // A compile cache of this test's own (Node takes NODE_COMPILE_CACHE over the launcher's folder).
    const cache = mkdtempSync(join(tmpdir(), "skillboard-compile-cache-"));
    try {
      const start = (args: string[]) =>
        spawnSync(process.execPath, ["scripts/cli.mjs", ...args], { env: { ...process.env, DATABASE_URL: db.url, NODE_COMPILE_CACHE: cache }, encoding: "utf8" });
      const listed = () => {
        const list = start(["skill", "list"]);
        expect(list.status, list.stderr).toBe(0);
        return list.stdout.trim().split("\n").map((line) => JSON.parse(line) as { skill: string; version: number });
      };
      const planFiles = () => readdirSync(cache, { recursive: true, encoding: "utf8" }).filter((name) => /query-plans-[0-9a-f]+\.v8$/.test(name));
      const keptShapes = () => (deserialize(readFileSync(join(cache, planFiles()[0]!))) as { templates: [string, unknown][] }).templates.map(([shape]) => shape);

      expect(start(["skill", "add", INITIAL_SKILL]).status).toBe(0);
      expect(listed()).toMatchObject([{ skill: "searchqa-initial", version: 1 }]);
      expect(planFiles()).toHaveLength(1);
      expect(keptShapes()).toContainEqual(expect.stringMatching(/^\{"modelName":"SkillVersion","action":"findMany"/));

      // A write, in a process whose reads are answered from the file: its compiler is built for the write.
      const added = start(["skill", "add", TRAINED_SKILL]);
      expect(added.status, added.stderr).toBe(0);
      expect(listed()).toMatchObject([{ skill: "searchqa-initial", version: 1 }, { skill: "searchqa-trained", version: 1 }]);

      // A damaged file is as if empty, and is written again.
      writeFileSync(join(cache, planFiles()[0]!), "damaged");
      expect(listed()).toHaveLength(2);
      expect(keptShapes()).toContainEqual(expect.stringMatching(/^\{"modelName":"SkillVersion","action":"findMany"/));
    } finally {
      rmSync(cache, { recursive: true, force: true });
      await db.close();
    }
  });
});
