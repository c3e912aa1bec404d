// Compare in a real browser against the production build: two runs of the two fixture skills (v1 the initial skill,
// v2 the trained one) on one dataset, answered by the fake model differently per skill so that some items are fixed
// and some broken. Opened from the v2 run (the reference resolves to v1), the summary shows the interval and the
// p-value; "Fixed" lists the fixed items, which step side by side; the skill diff reads both ways.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSkillVersion, importDataset, newWorkerId } from "@/lib/db";
import { createRunFor, executeRun } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { useBrowserApp } from "../support/browser-app";
import { screenshot, SCREENSHOT_DIR } from "../support/browser";
import type { Locator } from "playwright-core";
import { questionOf, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { fastModel, makeItems } from "../support/rollout-fixtures";

const INITIAL = readFileSync(new URL("../fixtures/skills/searchqa-initial.md", import.meta.url), "utf8");
const TRAINED = readFileSync(new URL("../fixtures/skills/searchqa-trained.md", import.meta.url), "utf8");
const TRAINED_MARK = "## Concise Answer Normalization";
const ITEMS = 30;
// v1 is wrong on every 3rd item, v2 on every 5th: fixed 3, 6, 9, 12, 18, 21, 24, 27; broken 5, 10, 20, 25; 0 and 15 wrong in both.
const FIXED = ["q0003", "q0006", "q0009", "q0012", "q0018", "q0021", "q0024", "q0027"];

describe("compare (browser)", () => {
  let fake: FakeOpenAIServer | undefined;
  const runIds: number[] = [];

  beforeAll(async () => {
    expect(TRAINED).toContain(TRAINED_MARK);
    expect(INITIAL).not.toContain(TRAINED_MARK);
    fake = await startFakeOpenAIServer({
      answer: (request) => {
        const trained = request.messages[0]?.content.includes(TRAINED_MARK) ?? false;
        const index = Number(/clue number (\d+)\?/.exec(questionOf(request.messages))?.[1]);
        const wrong = trained ? index % 5 === 0 : index % 3 === 0;
        return `Let me think.\n<answer>${wrong ? `Wrong guess ${index}` : `Answer ${index}`}</answer>`;
      },
    });
  });
  afterAll(() => fake?.close());
  const app = useBrowserApp({ viewport: { width: 1400, height: 1000 } });

  beforeAll(async () => {
    const dataset = await importDataset(app.db, { name: "compare set", fileName: "compare.jsonl", format: "jsonl", hash: "compare-test", items: makeItems(ITEMS) });
    for (const content of [INITIAL, TRAINED]) {
      const { version } = await addSkillVersion(app.db, { name: "compare-skill", content });
      // Leased to this process as it is created, so the app's worker leaves it to us.
      const workerId = newWorkerId();
      const run = await createRunFor(app.db, {
        datasetId: dataset.id,
        skillVersionId: version.id,
        config: { model: { backend: "openai", model: "test-model", baseURL: fake!.baseURL }, settings: RunSettingsSchema.parse({ concurrency: 4, maxRetries: 0 }) },
        leaseFor: workerId,
      });
      runIds.push((await executeRun(app.db, run.id, { workerId, model: fastModel(fake!.baseURL, { maxRetries: 0 }) })).id);
    }
  });

  it("opens from the v2 run against v1, lists the fixed items, steps side by side and shows the skill diff", async () => {
    const { page, errors } = app.browser;
    const base = app.baseURL;
    const [v1, v2] = runIds as [number, number];

    // From the run page's link: the reference is the previous version's run, and the URL is the canonical one.
    await page.goto(`${base}/runs/${v2}`);
    await page.getByRole("link", { name: "Compare with the previous version" }).click();
    await page.waitForURL((url) => url.pathname === "/compare" && url.searchParams.get("runs") === `${v1},${v2}`);
    await page.getByRole("heading", { name: "Compare", level: 1 }).waitFor();

    // Summary: EM 20/30 → 24/30, ΔEM +0.133 with its interval, McNemar on 4 broken vs 8 fixed.
    const difference = page.getByTestId(`difference-${v2}`);
    const text = await difference.innerText();
    expect(text).toContain("30");
    expect(text).toContain("+0.133");
    expect(text).toMatch(/\[[-+]?0\.\d{3}, \+0\.\d{3}\]/);
    expect(text).toContain("8 / 4");
    expect(text).toContain("0.39"); // 2 · P[X ≤ 4], X ~ Bin(12, ½) = 794/2048 ≈ 0.388
    await expect(page.getByRole("table", { name: "Compared runs" }).innerText()).resolves.toContain("compare-skill v1");
    // The run and the reading each keep to their line (they wrapped onto three).
    await expect(lineCount(difference.locator("td").first())).resolves.toBe(1);
    await expect(lineCount(difference.locator("td").last().locator("span").first())).resolves.toBe(1);
    // The overlay chart fills its card (a fixed 760 px left 40 % of it empty).
    const overlay = page.getByRole("region", { name: /^Running accuracy/ });
    const chart = overlay.locator(".recharts-wrapper > svg.recharts-surface");
    await chart.waitFor();
    const cardWidth = await overlay.evaluate((card) => card.clientWidth - parseFloat(getComputedStyle(card).paddingLeft) - parseFloat(getComputedStyle(card).paddingRight));
    await expect.poll(() => chart.evaluate((svg) => svg.getBoundingClientRect().width)).toBeGreaterThan(0.95 * cardWidth);
    await screenshot(page, "compare-summary");
    await difference.locator("xpath=ancestor::section[1]").screenshot({ path: join(SCREENSHOT_DIR, "compare-summary-card.png") });
    await overlay.screenshot({ path: join(SCREENSHOT_DIR, "compare-overlay.png") });

    // The groups are buttons; "Fixed" lists exactly the fixed items.
    for (const name of ["Fixed", "Broken", "Both right", "Both wrong"]) await page.getByRole("button", { name, exact: true }).waitFor();
    await page.getByRole("button", { name: "Fixed", exact: true }).click();
    await page.waitForURL(/group=fixed/);
    const list = page.getByRole("table", { name: "Fixed items" });
    await list.waitFor();
    await expect(list.locator("tbody tr td:first-child").allInnerTexts()).resolves.toEqual(FIXED);
    // In a narrow window the ids and "0.000 → 1.000" stay whole; the free text wraps instead.
    await page.setViewportSize({ width: 640, height: 1000 });
    await expect(lineCount(list.locator("tbody tr td:first-child").first())).resolves.toBe(1);
    await expect(lineCount(list.locator("tbody tr td:last-child").first())).resolves.toBe(1);
    await list.screenshot({ path: join(SCREENSHOT_DIR, "compare-fixed-narrow.png") });
    await page.setViewportSize({ width: 1400, height: 1000 });

    // Side by side: question and gold once, a column per run; next and previous stay within "Fixed".
    await list.getByRole("link", { name: "q0006" }).click();
    await page.waitForURL(/item=q0006/);
    await expect(page.getByText("2 of 8 · Fixed").isVisible()).resolves.toBe(true);
    await expect(page.getByTestId(`column-${v1}`).getByTestId("compare-predicted").innerText()).resolves.toBe("Wrong guess 6");
    await expect(page.getByTestId(`column-${v2}`).getByTestId("compare-predicted").innerText()).resolves.toBe("Answer 6");
    await expect(page.getByTestId(`column-${v2}`).innerText()).resolves.toContain("EM 1");
    await screenshot(page, "compare-side-by-side");
    await page.getByRole("button", { name: "Next item" }).click();
    await page.waitForURL(/item=q0009/);
    await expect(page.getByText("3 of 8 · Fixed").isVisible()).resolves.toBe(true);
    await page.getByRole("button", { name: "Previous item" }).click();
    await page.waitForURL(/item=q0006/);
    await page.getByRole("button", { name: "Previous item" }).click();
    await page.waitForURL(/item=q0003/);
    await expect(page.getByRole("button", { name: "Previous item" }).isDisabled()).resolves.toBe(true);

    // The skill diff: v1 → v2 counts, unified then side by side.
    const diff = page.getByRole("region", { name: /^Skill diff/ });
    await expect(diff.getByTestId("diff-counts").innerText()).resolves.toMatch(/^\+\d+ lines added −\d+ lines? removed$/);
    // v2 only adds lines: "−0 lines removed" is not news, so it is neither red nor bold.
    const removed = diff.getByText("−0 lines removed", { exact: true });
    const look = await removed.evaluate((element) => {
      const hint = document.querySelector("main .hint")!;
      return { weight: getComputedStyle(element).fontWeight, color: getComputedStyle(element).color, muted: getComputedStyle(hint).color };
    });
    expect(look).toEqual({ weight: "400", color: look.muted, muted: look.muted });
    await diff.getByTestId("diff-counts").screenshot({ path: join(SCREENSHOT_DIR, "compare-diff-counts.png") });
    await expect(diff.getByRole("table", { name: "Skill diff, unified" }).innerText()).resolves.toContain("Concise Answer Normalization");
    await diff.getByRole("link", { name: "Side by side" }).click();
    await page.waitForURL(/diff=split/);
    const split = page.getByRole("table", { name: "Skill diff, side by side" });
    await expect(split.innerText()).resolves.toContain("Question Answering Skill");
    await split.scrollIntoViewIfNeeded();
    await screenshot(page, "compare-skill-diff");

    // The CSV download: the summary, then one row per item.
    const csv = await (await fetch(`${base}/compare/download?runs=${v1},${v2}`)).text();
    expect(csv.split("\r\n")[0]).toMatch(/^section,run_id,skill/);
    expect(csv).toContain(`item,${v1},${v2},q0006,fixed`);
    expect(errors).toEqual([]);
  });
});

/** How many lines the element's content takes: its boxes' bottoms, a few pixels apart counting as one line. */
function lineCount(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const bottoms = [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => rect.bottom).sort((a, b) => a - b);
    return bottoms.filter((bottom, index) => index === 0 || bottom - bottoms[index - 1]! > 4).length;
  });
}
