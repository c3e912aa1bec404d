// The datasets pages in a real browser against the production build: upload a JSONL file through the
// picker (progress, then validation), see its statistics and paginated preview; a broken file names the
// line and field and stores nothing.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { getDataset, importDataset, splitDataset } from "@/lib/db";

const LONG_CONTEXT = `[DOC] [TLE] Long page [PAR] ${"A very long passage about rivers and cities. ".repeat(150)}`;

/** 45 items: three preview pages; item 3 has a context over the 6000-character limit, item 4 none. */
function datasetJsonl(): string {
  return Array.from({ length: 45 }, (_, index) => {
    const n = index + 1;
    const context = n === 3 ? LONG_CONTEXT : n === 4 ? "" : `[DOC] [TLE] Page ${n} [PAR] Item ${n} is about city number ${n}.`;
    return JSON.stringify({ id: `q-${n}`, question: `Which city is number ${n}?`, answers: [`City ${n}`, `C${n}`], context, category: n % 2 ? "odd" : "even" });
  }).join("\n");
}

describe("datasets pages (browser)", () => {
  const app = useBrowserApp({ viewport: { width: 1280, height: 900 } });

  async function chooseAndUpload(name: string, fileName: string, text: string) {
    const { page } = app.browser;
    await page.goto(`${app.baseURL}/datasets`);
    await page.getByLabel("Dataset file").setInputFiles({ name: fileName, mimeType: "application/octet-stream", buffer: Buffer.from(text, "utf8") });
    await page.getByLabel("Dataset name").fill(name);
    await page.getByRole("button", { name: "Upload dataset" }).click();
  }

  const datasetRows = () => app.browser.page.getByRole("table", { name: "All datasets" }).locator("tbody tr");

  it("uploads a JSONL file and shows its statistics and a paginated preview", async () => {
    const { page } = app.browser;
    await chooseAndUpload("Cities QA", "cities.jsonl", datasetJsonl());
    const stored = page.locator("main").getByRole("status").filter({ hasText: "Stored" });
    await expect.poll(() => stored.innerText(), { timeout: 15_000 }).toContain("Stored Cities QA with 45 items.");
    await expect.poll(() => datasetRows().first().innerText()).toMatch(/Cities QA\s+cities\.jsonl\s+45\s+JSONL/);
    await screenshot(page, "datasets");

    await stored.getByRole("link", { name: "Cities QA" }).click();
    await page.waitForURL(/\/datasets\/\d+$/);
    const main = page.locator("main");
    await expect.poll(() => main.getByRole("heading", { level: 1 }).innerText()).toBe("Cities QA");
    const facts = await main.locator("dl").innerText();
    expect(facts).toMatch(/Items\s+45/);
    expect(facts).toMatch(/Contexts over 6,000 characters\s+1 \(2\.2%\)/);
    expect(facts).toMatch(/Empty contexts\s+1 \(2\.2%\)/);
    const stats = await page.getByRole("table", { name: "Length statistics" }).innerText();
    expect(stats).toMatch(/Answers per item\s+2\s+2\s+2\s+2\s+2/);
    expect(await main.innerText()).toMatch(/category\s+on 45 items/);
    expect(await main.getByRole("link", { name: "New run on this dataset" }).getAttribute("href")).toMatch(/^\/runs\/new\?datasetId=\d+$/);
    // Its sha256 is the file's, the one `sha256sum cities.jsonl` prints; the upload time is in UTC, said so.
    const fileSha256 = createHash("sha256").update(datasetJsonl(), "utf8").digest("hex");
    await expect(main.getByTestId("dataset-file-sha256").getAttribute("title")).resolves.toBe(fileSha256);
    const record = await getDataset(app.db, Number(new URL(page.url()).pathname.split("/").pop()));
    expect(record.fileSha256).toBe(fileSha256);
    const uploaded = record.createdAt.toISOString();
    expect(await main.innerText()).toContain(`uploaded ${uploaded.slice(0, 10)} ${uploaded.slice(11, 16)} UTC`);
    expect(await main.innerText()).toContain(`items hash ${record.hash.slice(0, 10)}`);

    // Page 1: items 1–20; the long context is cut, with the whole text in a <details>.
    expect(await main.innerText()).toContain("Items 1–20 of 45");
    const longRow = main.locator("tbody tr").filter({ hasText: "Which city is number 3?" });
    expect(await longRow.locator("summary").innerText()).toMatch(/Full context \(\d,\d{3} characters\)/);
    await longRow.locator("summary").click();
    expect(await longRow.locator("details").innerText()).toContain(LONG_CONTEXT.slice(-60).trim());
    await screenshot(page, "dataset");

    await main.getByRole("link", { name: "Next →" }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => main.innerText()).toContain("Items 21–40 of 45");
    expect(await main.innerText()).toContain("Which city is number 21?");
    expect(app.browser.errors).toEqual([]);
  });

  it("says the file's sha256 was not recorded for a dataset stored before it was", async () => {
    const { page } = app.browser;
    const old = await importDataset(app.db, { name: "Old QA", fileName: "old.jsonl", format: "jsonl", hash: "0123456789abcdef", items: [{ id: "a", question: "Q?", answers: ["x"], context: "" }] });
    await page.goto(`${app.baseURL}/datasets/${old.id}`);
    const header = await page.locator("main").innerText();
    expect(header).toContain("sha256 not recorded");
    expect(header).toContain("items hash 0123456789");
    await expect(page.getByTestId("dataset-file-sha256").count()).resolves.toBe(0);
  });

  it("shows a split part's source and sibling parts, and a split dataset's splits, with links", async () => {
    const { page } = app.browser;
    const items = Array.from({ length: 20 }, (_, i) => ({ id: `s-${i}`, question: `Q${i}?`, answers: [`A${i}`], context: "" }));
    const source = await importDataset(app.db, { name: "Split QA", fileName: "split.jsonl", format: "jsonl", hash: "split-qa-hash", items });
    const { split } = await splitDataset(app.db, source.id, { mode: "ratio", ratio: "2:1:7", seed: 42 });

    await page.goto(`${app.baseURL}/datasets/${split.parts.val.datasetId}`);
    const splitOf = page.getByTestId("dataset-split-of");
    expect(await splitOf.innerText()).toBe("Split of Split QA (ratio 2:1:7, seed 42): train 4 · val 2 · test 14");
    expect(await splitOf.getByRole("link", { name: "Split QA" }).getAttribute("href")).toBe(`/datasets/${source.id}`);
    expect(await splitOf.getByRole("link", { name: "train 4" }).getAttribute("href")).toBe(`/datasets/${split.parts.train.datasetId}`);
    expect(await splitOf.getByRole("link", { name: "val 2" }).count()).toBe(0); // the page being shown

    await splitOf.getByRole("link", { name: "Split QA" }).click();
    await page.waitForURL(`${app.baseURL}/datasets/${source.id}`);
    const splits = page.getByTestId("dataset-splits");
    expect(await splits.innerText()).toBe("ratio 2:1:7, seed 42: train 4 · val 2 · test 14");
    expect(await splits.getByRole("link", { name: "test 14" }).getAttribute("href")).toBe(`/datasets/${split.parts.test.datasetId}`);
    await expect(page.getByTestId("dataset-split-of").count()).resolves.toBe(0);
    expect(app.browser.errors).toEqual([]);
  });

  it("reports a broken file by line and field and stores nothing", async () => {
    const { page } = app.browser;
    await page.goto(`${app.baseURL}/datasets`);
    const before = await datasetRows().allInnerTexts();
    const broken = [
      JSON.stringify({ id: "ok", question: "Fine?", answers: ["yes"] }),
      JSON.stringify({ id: "bad", question: "No answers?", answers: [] }),
      "{not json",
    ].join("\n");
    await chooseAndUpload("Broken QA", "broken.jsonl", broken);
    const alert = page.locator("main").getByRole("alert");
    await expect.poll(() => alert.innerText(), { timeout: 15_000 }).toContain("Nothing was stored");
    const text = await alert.innerText();
    expect(text).toMatch(/broken\.jsonl: line 2: field "answers": /);
    expect(text).toMatch(/broken\.jsonl: line 3: /);
    await screenshot(page, "datasets-broken-upload");
    await page.reload();
    expect(await datasetRows().allInnerTexts()).toEqual(before);
  });

  it("uploads a 55 MB file with byte progress, then validation, and stores every item", async () => {
    const { page } = app.browser;
    // Playwright takes at most 50 MB from memory; larger files go by path.
    const dir = mkdtempSync(join(tmpdir(), "skillboard-big-dataset-"));
    try {
      const path = join(dir, "big.jsonl");
      const context = `[DOC] [TLE] Page [PAR] ${"A passage about a river and the city beside it. ".repeat(55)}`;
      const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `big-${i}`, question: `Question ${i}?`, answers: [`Answer ${i}`], context }));
      writeFileSync(path, `${lines.join("\n")}\n`);
      expect(statSync(path).size).toBeGreaterThan(50 * 1024 * 1024);

      await page.goto(`${app.baseURL}/datasets`);
      // Record every status the form shows: uploading and validating pass too quickly to poll for.
      await page.evaluate(() => {
        const seen: string[] = ((window as unknown as { __statuses: string[] }).__statuses = []);
        new MutationObserver(() => {
          for (const node of document.querySelectorAll("main [role=status]")) seen.push((node as HTMLElement).innerText);
        }).observe(document.querySelector("main")!, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await page.getByLabel("Dataset file").setInputFiles(path);
      await page.getByLabel("Dataset name").fill("Big QA");
      await page.getByRole("button", { name: "Upload dataset" }).click();
      const outcome = page.locator("main").getByRole("status").filter({ hasText: "Stored" }).or(page.locator("main").getByRole("alert"));
      await expect.poll(() => outcome.innerText(), { timeout: 120_000 }).toMatch(/Stored|Nothing|reached|failed/);
      // A failure here that says "Only … bytes reached the server" means the upload went through proxy.ts, for which
      // Next buffers request bodies and cuts them at 10 MB by default: the proxy's matcher must leave /api/datasets out.
      expect(await outcome.innerText()).toBe("Stored Big QA with 20,000 items.");
      const statuses = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses.join("\n"));
      expect(statuses).toMatch(/Uploading… [\d.]+ (KB|MB) of 5\d\.\d MB/);
      expect(statuses).toContain("Validating…");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("refuses a file with the wrong extension before sending it", async () => {
    const { page } = app.browser;
    await chooseAndUpload("Sheet", "sheet.xlsx", "id,question,answers\n");
    await expect.poll(() => page.locator("main").getByRole("alert").innerText()).toContain("sheet.xlsx is not a dataset file");
  });
});
