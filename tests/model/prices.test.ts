import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { costOf, loadConfiguredPrices, priceOf, PriceConfigError, pricesForDisplay, totalCost, usageCost } from "@/lib/model/prices";

const dir = mkdtempSync(join(tmpdir(), "skillboard-prices-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("model prices", () => {
  it("knows a few models, dated, and says unknown (null) for the rest: never a made-up number", () => {
    expect(priceOf("gpt-4.1-mini")).toMatchObject({ input: 0.4, output: 1.6, source: expect.stringMatching(/^list price as of \d{4}-\d{2}-\d{2}$/) });
    expect(priceOf("my-local-llama")).toBeNull();
    expect(costOf(priceOf("my-local-llama"), { prompt: 1000, completion: 10 })).toBeNull();
  });

  it("computes cost from input, cached input and output tokens", () => {
    // 1M prompt tokens of which 200k cached, 100k completion tokens, at 0.4 / 0.1 / 1.6 per million.
    expect(costOf(priceOf("gpt-4.1-mini"), { prompt: 1_000_000, cachedPrompt: 200_000, completion: 100_000 })).toBeCloseTo(0.32 + 0.02 + 0.16, 10);
  });

  it("takes the server's table from skillboard.config.json first, and names the field of a bad entry", () => {
    const good = join(dir, "good.json");
    writeFileSync(good, JSON.stringify({ agents: {}, prices: { "my-model": { input: 1, output: 2 }, "gpt-4.1-mini": { input: 9, output: 9 } } }));
    const table = loadConfiguredPrices({ SKILLBOARD_CONFIG: good });
    expect(priceOf("my-model", table)).toMatchObject({ input: 1, output: 2, source: "skillboard.config.json" });
    expect(priceOf("gpt-4.1-mini", table)?.input).toBe(9);
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ prices: { "my-model": { input: -1, output: 2 } } }));
    expect(() => loadConfiguredPrices({ SKILLBOARD_CONFIG: bad })).toThrow(PriceConfigError);
    expect(() => loadConfiguredPrices({ SKILLBOARD_CONFIG: bad })).toThrow(/bad\.json: prices\.my-model\.input/);
  });
});

describe("usageCost and totalCost (what every page shows)", () => {
  const usage = { backend: "openai", model: "gpt-4.1-mini", promptTokens: 1_000_000, completionTokens: 500_000 };

  it("prices usage at the model's price, the baseline at 0, and an unpriced model or an import without tokens as unknown", () => {
    expect(usageCost(usage, {})).toEqual({ usd: expect.closeTo(0.4 + 0.8, 10), priceSource: expect.stringMatching(/^list price as of /) });
    expect(usageCost({ ...usage, model: "my-local-llama" }, {})).toEqual({ usd: null, priceSource: null });
    expect(usageCost({ ...usage, backend: "baseline", model: "baseline" }, {})).toMatchObject({ usd: 0 });
    expect(usageCost({ ...usage, promptTokens: 0, completionTokens: 0, source: "imported" }, {})).toEqual({ usd: null, priceSource: null });
    // An imported file that did carry token counts is priced like any run.
    expect(usageCost({ ...usage, source: "imported" }, {}).usd).toBeCloseTo(1.2, 10);
    // A broken price table (null) prices nothing, not even a known model: the broken entry may be its override.
    expect(usageCost(usage, null)).toEqual({ usd: null, priceSource: null });
  });

  it("adds costs, and a sum with one unknown part is unknown", () => {
    expect(totalCost([{ usd: 0.5, priceSource: "a" }, { usd: 0.25, priceSource: "b" }])).toBeCloseTo(0.75, 10);
    expect(totalCost([{ usd: 0.5, priceSource: "a" }, { usd: null, priceSource: null }])).toBeNull();
    expect(totalCost([])).toBe(0);
  });

  it("reads the configured table for pages, and a broken one as null instead of failing the page", () => {
    const good = join(dir, "display-good.json");
    writeFileSync(good, JSON.stringify({ prices: { "my-model": { input: 1, output: 2 } } }));
    expect(pricesForDisplay({ SKILLBOARD_CONFIG: good })).toEqual({ "my-model": { input: 1, output: 2 } });
    const bad = join(dir, "display-bad.json");
    writeFileSync(bad, JSON.stringify({ prices: { "my-model": { input: "cheap", output: 2 } } }));
    expect(pricesForDisplay({ SKILLBOARD_CONFIG: bad })).toBeNull();
  });
});
