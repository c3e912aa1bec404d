// Valid data that used to ruin a page: a question starting with "\r" (the browser's HTML parser rewrites it, so React
// failed to hydrate the item page: error #418), other control characters, fields of 1,000,000 characters and hundreds
// of answers. Every page renders the same text on the server and in the browser, with no console error, and costs the
// same whatever the item holds: long texts are cut with "… N more characters" and a way to all of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDataset, type Db } from "@/lib/db";
import { MAX_FIELD_CHARS } from "@/lib/datasets";
import { buildUserPrompt } from "@/lib/prompts";
import { BUILD_TIMEOUT_MS, type AppServer } from "../support/app-server";
import { startBrowserApp, type BrowserApp } from "../support/browser-app";
import { screenshot, type BrowserSession } from "../support/browser";
import { makeItemResults, writeGeneratedRun } from "../support/item-fixtures";

const CR_QUESTION = "\rWhere does the carriage return go?\r\nAnd a NUL \u0000 and an escape \u001b.";
const SHOWN_QUESTION = "\u240dWhere does the carriage return go?\u240d\nAnd a NUL \u2400 and an escape \u241b.";
const HUGE = "y".repeat(MAX_FIELD_CHARS);

describe("hostile text on the pages (browser)", () => {
  let app: BrowserApp | undefined;
  let server: AppServer | undefined;
  let browser: BrowserSession | undefined;
  let db: Db | undefined;
  let datasetId = 0;
  let runId = 0;

  beforeAll(async () => {
    app = await startBrowserApp({ viewport: { width: 1280, height: 900 } });
    ({ server, browser, db } = app);
    // 20 items (one preview page), each with a context, a question and an answer at the field limit, 300 answers.
    const items = Array.from({ length: 20 }, (_, index) => ({
      id: `wide-${index}`,
      question: index === 0 ? CR_QUESTION : `${HUGE.slice(0, -10)}Q${index}`,
      context: HUGE,
      answers: [HUGE, ...Array.from({ length: 299 }, (_, answer) => `answer ${answer}`)],
      metadata: Object.fromEntries(Array.from({ length: 64 }, (_, field) => [`field-${field}`, `value ${field}`])),
    }));
    datasetId = (await importDataset(db, { name: "hostile", fileName: "hostile.jsonl", format: "jsonl", hash: "hostile", items })).id;
    const [base] = makeItemResults(1);
    const response = `\r\nLet me think.${HUGE}\n<answer>Answer</answer>`;
    runId = (await writeGeneratedRun(db, [{
      ...base!, itemId: "cr", question: CR_QUESTION, response, userPrompt: buildUserPrompt({ question: CR_QUESTION, context: "[DOC] [TLE] T [PAR] text" }),
      conversation: [{ type: "message", turn: 1, content: response }],
    }])).runId;
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await app?.stop();
  }, 30_000);

  it("the dataset page shows control characters and cuts 1,000,000-character fields, at a bounded size", async () => {
    const { page, errors } = browser!;
    const html = await (await fetch(`${server!.baseURL}/datasets/${datasetId}`)).text();
    // Raw, the page's fields hold 60,000,000 characters; it must not grow with them.
    expect(html.length).toBeLessThan(2_000_000);
    await page.goto(`${server!.baseURL}/datasets/${datasetId}`);
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("hostile");
    await expect(main.locator("tbody tr").filter({ hasText: "wide-0" }).innerText()).resolves.toContain(SHOWN_QUESTION.slice(0, 30));
    await expect(main.getByTestId("more-characters").first().innerText()).resolves.toMatch(/… 998,000 more characters \(show all\)/);
    await expect(main.innerText()).resolves.toContain("and 280 more");
    await screenshot(page, "dataset-hostile");
    expect(errors.filter((error) => !error.includes("/favicon.ico"))).toEqual([]);
  }, 60_000);

  it("the item view hydrates with a question starting with \\r, cuts a 1,000,000-character response, and shows all of it on request", async () => {
    const { page, errors } = browser!;
    const url = `${server!.baseURL}/runs/${runId}/items/cr?filter=all`;
    expect((await (await fetch(url)).text()).length).toBeLessThan(1_000_000);
    await page.goto(url);
    await page.getByRole("heading", { name: "Item cr" }).waitFor();
    // Hydrated: the page's client parts work (the copy button of the short prompt answers a click).
    await page.getByRole("button", { name: "Copy prompt" }).click();
    await expect.poll(() => page.getByRole("status").allInnerTexts()).toContainEqual(expect.stringMatching(/^(Copied|Copy failed)$/));
    await expect(page.locator("main").innerText()).resolves.toContain("\u240dWhere does the carriage return go?");
    const response = page.getByTestId("model-response");
    await expect(response.innerText()).resolves.toMatch(/… 980,\d{3} more characters \(show all\)$/);
    await expect(page.getByRole("button", { name: "Copy response" }).count()).resolves.toBe(0);
    await response.getByRole("link", { name: "show all" }).click();
    await page.waitForURL(/show=all/);
    await expect.poll(async () => (await response.innerText()).length).toBeGreaterThan(MAX_FIELD_CHARS);
    await expect(page.getByRole("button", { name: "Copy response" }).count()).resolves.toBe(1);
    expect(errors.filter((error) => !error.includes("/favicon.ico"))).toEqual([]);
  }, 90_000);
});
