// Every transaction takes SQLite's write lock when it begins. Without that, a transaction that has read and then
// writes after another process committed fails at once with "database is locked" (a stale WAL snapshot), which
// is how adding a skill version failed while the dashboard seeded its demo.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { databaseFilePath } from "@/lib/db";
import { createTestDb, type TestDatabase } from "../support/test-db";

const opened: TestDatabase[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill();
  await Promise.all(opened.splice(0).map((test) => test.close()));
});

/**
 * Another process on the same file that adds a skill named `name` when told to (a line on stdin). Its first try
 * does not wait for the lock: when the database is locked it says "busy", then waits for its turn and writes.
 * `tried` resolves with "busy" or "written", whichever it says first.
 */
async function otherWriter(file: string, name: string): Promise<{ write(): void; tried: Promise<string>; done: Promise<string> }> {
  const script = `
    const db = new (require("better-sqlite3"))(process.argv[1], { timeout: 0 });
    console.log("ready");
    process.stdin.once("data", () => {
      const insert = db.prepare('INSERT INTO "Skill" ("name") VALUES (?)');
      try {
        insert.run(process.argv[2]);
      } catch (error) {
        if (error.code !== "SQLITE_BUSY") throw error;
        console.log("busy");
        db.pragma("busy_timeout = 15000");
        insert.run(process.argv[2]);
      }
      console.log("written");
      process.exit(0);
    });`;
  const child = spawn(process.execPath, ["-e", script, file, name], { cwd: process.cwd() });
  children.push(child);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  await once(child.stdout, "data");
  const tried = new Promise<string>((resolve) => {
    const onData = () => {
      const said = /^(busy|written)$/m.exec(output)?.[1];
      if (!said) return;
      child.stdout.off("data", onData);
      resolve(said);
    };
    child.stdout.on("data", onData);
  });
  const done = once(child, "exit").then(() => output);
  return { write: () => child.stdin.write("go\n"), tried, done };
}

describe("transactions and other processes", () => {
  it("a transaction that reads, then writes after another process tried to write, commits and the other write lands too", async () => {
    const test = createTestDb();
    opened.push(test);
    const other = await otherWriter(databaseFilePath(test.url), "written by the other process");

    const created = await test.db.$transaction(async (tx) => {
      expect(await tx.skill.count()).toBe(0);
      other.write();
      // The other process tries its write now: it must find the database locked by this transaction, not slip in.
      expect(await other.tried).toBe("busy");
      return tx.skill.create({ data: { name: "written in the transaction" } });
    });

    expect(created.name).toBe("written in the transaction");
    expect(await other.done).toContain("written");
    const names = (await test.db.skill.findMany({ orderBy: { id: "asc" } })).map((skill) => skill.name);
    expect(names).toEqual(["written in the transaction", "written by the other process"]);
  });

});
