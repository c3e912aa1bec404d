// The run page on PostgreSQL, in a real browser: while a run is shared by the dashboard's worker process and two CLI
// workers, the workers table names each one with its host, slots and items in flight, its heading saying how many of
// the run's concurrency they hold; a worker that is stopped leaves the table; once the run completes the table goes.
import { hostname } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { screenshot } from "../support/browser";
import { useBrowserApp } from "../support/browser-app";
import { usePgAppWorld } from "../support/pg-app-world";
import { detachedRun, stopWorker, workerPool } from "../support/queue-run";

const ITEMS = 3_000;
/** Less than the three workers could take (10 each): the last to join gets what is left. */
const CONCURRENCY = 25;
const PER_WORKER = 10;

describe("the workers table of the run page on PostgreSQL (browser)", () => {
  // Before useBrowserApp: the database and the model server are there when the app starts, and outlive it. Slow enough
  // answers that every worker has items in flight while the page is looked at.
  const world = usePgAppWorld("run_workers", 300);
  const workers = workerPool(() => world.url, 5);

  const app = useBrowserApp(() => ({
    env: { DATABASE_URL: world.url, SKILLBOARD_WORKER_TTL_S: "5", SKILLBOARD_WORKER_CONCURRENCY: String(PER_WORKER) },
    viewport: { width: 1280, height: 1000 },
  }));
  // Before the app stops (afterAll hooks run in reverse order).
  afterAll(() => workers.stopAll(), 30_000);

  it("lists the workers on the run with their host, slots and items in flight, drops a stopped one, and goes when the run completes", async () => {
    const { page, errors } = app.browser;
    // The dashboard's worker process is live: it may take the run as soon as it is queued.
    const runId = await detachedRun({ db: app.db, url: world.url, dir: world.dir }, world.model.baseURL, ITEMS, CONCURRENCY, { workerLive: true });
    const w2 = workers.start("w2", PER_WORKER);
    workers.start("w1", PER_WORKER);
    await page.goto(`${app.baseURL}/runs/${runId}`);

    const panel = page.getByRole("region", { name: "Workers" });
    const table = page.getByTestId("run-workers");
    const rows = table.locator("tbody tr");
    // Each row's Worker, Host, Slots and In flight cells, as the reader sees them.
    const readRows = () =>
      rows.evaluateAll((trs) =>
        trs.map((tr) => {
          const [name = "", host = "", slots = "", inFlight = ""] = [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "");
          return { name, host, slots: Number(slots), inFlight: Number(inFlight) };
        }),
      );
    // All three on the run, each with items in flight (the gauges come with the workers' heartbeats).
    await expect
      .poll(async () => (await readRows()).filter((row) => row.inFlight > 0).map((row) => row.name).sort(), { timeout: 30_000 })
      .toEqual(["dashboard", "w1", "w2"]);
    const shown = await readRows();
    const stored = await app.db.runWorker.findMany({ where: { runId } });
    expect(shown.map(({ name, host, slots }) => ({ name, host, slots })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      stored.map(({ name, host, slots }) => ({ name, host, slots })).sort((a, b) => a.name.localeCompare(b.name)),
    );
    for (const row of shown) {
      expect(row.host).toBe(hostname());
      expect(row.slots).toBeGreaterThan(0);
      expect(row.slots).toBeLessThanOrEqual(PER_WORKER);
      expect(row.inFlight).toBeLessThanOrEqual(row.slots);
    }
    // The slots the workers hold are the run's concurrency, not more: 10 + 10 + the 5 left.
    const slots = shown.reduce((sum, row) => sum + row.slots, 0);
    expect(slots).toBe(CONCURRENCY);
    await expect(panel.getByRole("heading").innerText()).resolves.toBe(`Workers on this run (3, ${slots} of ${CONCURRENCY} concurrency)`);
    await expect(page.getByTestId("run-status").innerText()).resolves.toBe("running");
    await screenshot(page, "run-workers-pg");

    // Stopped (SIGTERM): it finishes its items in flight, gives its chunks back and leaves the table.
    expect(await stopWorker(w2)).toBe(0);
    await expect.poll(async () => (await readRows()).map((row) => row.name).sort(), { timeout: 15_000 }).toEqual(["dashboard", "w1"]);
    await expect(panel.getByRole("heading").innerText()).resolves.toMatch(new RegExp(`^Workers on this run \\(2, \\d+ of ${CONCURRENCY} concurrency\\)$`));
    await expect(page.getByTestId("run-status").innerText()).resolves.toBe("running");

    // The rest at full speed: once the run completes, nobody is on it and the table is gone.
    world.model.setOptions({ latencyMs: 1 });
    await expect.poll(() => page.getByTestId("run-status").innerText(), { timeout: 90_000 }).toBe("completed");
    await expect.poll(() => table.count(), { timeout: 10_000 }).toBe(0);
    await expect(panel.count()).resolves.toBe(0);
    expect((await app.db.run.findUniqueOrThrow({ where: { id: runId } })).nDone).toBe(ITEMS);
    expect(errors).toEqual([]);
  }, 180_000);
});
