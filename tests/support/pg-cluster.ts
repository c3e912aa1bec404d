import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway PostgreSQL cluster for the tests: Debian's `postgresql` binaries (initdb, pg_ctl), a temporary data
 * folder, a free port on 127.0.0.1, trust authentication. Durability is switched off (fsync, full-page writes): the
 * cluster lives for one test run. Its default collation is ICU English, as a user's database typically is, so a
 * query that sorts by the database's collation instead of byte order (COLLATE "C") shows up in the tests.
 */
export interface PgCluster {
  port: number;
  dir: string;
  /** postgresql://postgres@127.0.0.1:<port>/<database> */
  url(database: string): string;
  /** Runs SQL with psql on the maintenance database (synchronous: CREATE DATABASE for a test's fresh database). */
  psql(sql: string, database?: string): string;
  stop(): void;
}

export function postgresBinDirectory(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((version) => join(root, version, "bin")).find((dir) => existsSync(join(dir, "initdb")));
  if (!bin) throw new Error("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql, or set PG_BIN)");
  return bin;
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBinDirectory();
  const dir = mkdtempSync(join(tmpdir(), "skillboard-pg-"));
  const data = join(dir, "data");
  const port = await freePort();
  // PostgreSQL refuses to run as root (CI containers are root): then it runs as `nobody`, which owns the folder.
  const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] : [];
  if (asUser.length > 0) chownSync(dir, 65534, 65534);
  const run = (command: string, args: string[]) => {
    const [file, ...rest] = [...asUser, join(bin, command), ...args];
    return execFileSync(file!, rest, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C.UTF-8" } });
  };
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale-provider=icu", "--icu-locale=en-US", "--locale=C.UTF-8"]);
  const options = [
    `-p ${port}`, "-c listen_addresses=127.0.0.1", `-c unix_socket_directories=${dir}`, "-c fsync=off",
    "-c synchronous_commit=off", "-c full_page_writes=off", "-c max_connections=200",
  ].join(" ");
  run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
  const url = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dir,
    url,
    psql: (sql, database = "postgres") =>
      execFileSync(join(bin, "psql"), ["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", url(database), "-c", sql], { encoding: "utf8" }),
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
