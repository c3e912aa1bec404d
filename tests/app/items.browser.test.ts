// The item explorer and the item view in a real browser against the production build: filter to the failing items,
// search, open an item, step with j / k, go back with Escape; and model output that looks like HTML (a <script>, an
// <img onerror>) is shown as text and never runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newWorkerId } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { combineFaults, defaultAnswer, faultAlways, questionOf, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, fastModel, itemGate, makeItems } from "../support/rollout-fixtures";

const SCRIPT_RESPONSE = "I think so.\n<script>window.__xss=1</script>\n<answer>Answer 3</answer>";
const IMG_ANSWER = '<img src=x onerror="window.__xss=2">';
const SPECIAL_ID = "a/b c?#%&=ü";
const ITEMS = 130;
// Items 7 and 11 fail with a 500 (model errors).
const MODEL_ERRORS = faultAlways((question) => /clue number (7|11)\?/.test(question), { kind: "status", status: 500 });

describe("item explorer (browser)", () => {
  let fake: FakeOpenAIServer | undefined;
  let runId = 0;

  beforeAll(async () => {
    // Every 4th item has another gold answer (wrong); item 3 answers with a script around a right answer, item 5 with
    // an <img onerror> as its answer (wrong); items 7 and 11 are model errors.
    fake = await startFakeOpenAIServer({
      answer: (request) => {
        const question = questionOf(request.messages);
        if (question.includes("clue number 3?")) return SCRIPT_RESPONSE;
        if (question.includes("clue number 5?")) return `Hmm.\n<answer>${IMG_ANSWER}</answer>`;
        return defaultAnswer(request);
      },
      faults: MODEL_ERRORS,
    });
  });
  afterAll(() => fake?.close());
  const app = useBrowserApp({ viewport: { width: 1280, height: 900 } });

  beforeAll(async () => {
    const items = makeItems(ITEMS, (index) => index % 4 === 0).map((item, index) => (index === 9 ? { ...item, id: SPECIAL_ID } : item));
    // Leased to this process as it is created, so the app's worker leaves it to us.
    const workerId = newWorkerId();
    const run = await createStoredRun(app.db, { items, baseURL: fake!.baseURL, settings: { concurrency: 8, maxRetries: 0 }, leaseFor: workerId });
    runId = (await executeRun(app.db, run.id, { workerId, model: fastModel(fake!.baseURL, { maxRetries: 0 }) })).id;
  });

  it("filters, searches, opens an item, steps with j / k, and shows hostile output as text", async () => {
    const { page, errors } = app.browser;
    const base = app.baseURL;

    // A finished run opens on its failing items.
    await page.goto(`${base}/runs/${runId}`);
    const failing = page.getByRole("button", { name: "Failing", exact: true });
    await expect(failing.getAttribute("aria-pressed")).resolves.toBe("true");
    await page.getByRole("button", { name: "All", exact: true }).click();
    await page.waitForURL(/filter=all/);
    await expect.poll(() => rowIds(page)).toHaveLength(50);
    await page.getByRole("link", { name: "Next page →" }).click();
    await page.waitForURL(/filter=all&page=2/);
    await failing.click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "failing" && !url.searchParams.has("page"));
    await expect.poll(() => rowIds(page)).toHaveLength(Math.ceil(ITEMS / 4) + 3);
    const failingIds = await rowIds(page);
    // Wrong answers (every 4th, and item 5) and the two model errors.
    expect(failingIds).toEqual(["q0000", "q0004", "q0005", "q0007", "q0008", "q0011", "q0012"].concat(failingIds.slice(7)));
    await expect(page.getByRole("group", { name: "Failure groups" }).innerText()).resolves.toContain("error: model server error (500");
    await screenshot(page, "items-explorer");

    // A failure group filters the table; the search finds text inside the responses.
    await page.getByRole("group", { name: "Failure groups" }).getByRole("button", { name: /^error: model server error/ }).click();
    await page.waitForURL(/filter=errors&reason=/);
    await expect.poll(() => rowIds(page)).toEqual(["q0007", "q0011"]);
    await failing.click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "failing" && !url.searchParams.has("reason"));
    await page.getByRole("searchbox", { name: "Search items" }).fill("ONERROR");
    await page.keyboard.press("Enter");
    await page.waitForURL(/q=ONERROR/);
    await expect.poll(() => rowIds(page)).toEqual(["q0005"]);
    // The prediction is in the table as text.
    await expect(page.locator("#items tbody").innerText()).resolves.toContain(IMG_ANSWER);
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has("q"));
    await expect.poll(() => rowIds(page)).toEqual(failingIds);

    // Open an item from the failing view, then step through the view with j / k.
    await page.locator("#items tbody tr", { hasText: "clue number 4?" }).getByRole("link").click();
    await page.waitForURL(/\/items\/q0004\?filter=failing/);
    await expect(page.getByRole("button", { name: "Previous item" }).isEnabled()).resolves.toBe(true);
    await expect(page.getByText(/^2 of 36 · failing$/).isVisible()).resolves.toBe(true);
    await page.keyboard.press("j");
    await page.waitForURL(/\/items\/q0005\?/);
    await expect(page.getByTestId("predicted-answer").innerText()).resolves.toBe(IMG_ANSWER);
    await expect(page.getByTestId("model-response").innerText()).resolves.toContain(IMG_ANSWER);
    await screenshot(page, "item-view");
    await page.keyboard.press("j");
    await page.waitForURL(/\/items\/q0007\?/);
    await expect(page.locator("main").innerText()).resolves.toContain("error: model server error (500");
    await page.keyboard.press("k");
    await page.waitForURL(/\/items\/q0005\?/);
    await page.keyboard.press("k");
    await page.waitForURL(/\/items\/q0004\?/);
    await page.getByRole("button", { name: "Next item" }).click();
    await page.getByRole("heading", { name: "Item q0005" }).waitFor();
    await page.keyboard.press("Escape");
    await page.waitForURL((url) => url.pathname === `/runs/${runId}` && url.searchParams.get("filter") === "failing");
    expect(new URL(page.url()).hash).toBe("#item-q0005");
    await expect(page.locator("tr[data-target]").innerText()).resolves.toContain("clue number 5?");

    // The script response: shown as text, never run; no element from the model's markup exists.
    await page.goto(`${base}/runs/${runId}/items/q0003?filter=all`);
    await expect(page.getByTestId("model-response").innerText()).resolves.toContain("<script>window.__xss=1</script>");
    await expect(page.getByText("contains gold: Answer 3").isVisible()).resolves.toBe(true);
    await expect(page.locator("main img, main script").count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();

    // An id with URL-special characters round-trips.
    await page.goto(`${base}/runs/${runId}?filter=all&q=${encodeURIComponent("clue number 9?")}`);
    await page.locator("#items tbody tr").first().getByRole("link").click();
    await page.waitForURL(/\/items\/a%2Fb/);
    await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toContain(SPECIAL_ID);
    await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();

    expect(errors).toEqual([]);
  }, 120_000);

  it("reloads the table by itself when the run it shows finishes", async () => {
    const { page, errors } = app.browser;
    // Queued in the database: the server's worker runs it while the page is open, its calls held until the page shows
    // the running run.
    const gate = itemGate(0);
    fake!.setOptions({ faults: combineFaults(MODEL_ERRORS, gate.faults) });
    const run = await createStoredRun(app.db, { items: makeItems(24, (index) => index % 3 === 0), baseURL: fake!.baseURL, settings: { concurrency: 2 } });
    await page.goto(`${app.baseURL}/runs/${run.id}`);
    await expect(page.getByRole("button", { name: "All", exact: true }).getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(page.getByTestId("run-status").innerText()).resolves.toMatch(/^(queued|running)$/);
    gate.admit(Infinity);
    await page.getByTestId("run-status").filter({ hasText: /^completed$/ }).waitFor({ timeout: 30_000 });
    // Finished: without a reload, the table now opens on the failing items, all of them.
    await expect.poll(() => page.getByRole("button", { name: "Failing", exact: true }).getAttribute("aria-pressed"), { timeout: 10_000 }).toBe("true");
    // Every 3rd item has another gold; 5 answers with the <img>, 7 and 11 fail (the fake server's rules above).
    const failing = ["q0000", "q0003", "q0005", "q0006", "q0007", "q0009", "q0011", "q0012", "q0015", "q0018", "q0021"];
    await expect.poll(() => rowIds(page)).toEqual(failing);
    expect(errors).toEqual([]);
  }, 60_000);
});

/** The item ids in the explorer's table, in order. */
function rowIds(page: Page): Promise<string[]> {
  return page.locator("#items tbody tr td:first-child").allInnerTexts();
}
