// The skills pages in a real browser against the production build: upload a skill through the file
// picker, upload it again (unchanged), view it rendered / raw / as the system prompt, download it, and
// check that HTML inside a skill never runs.
import { describe, expect, it } from "vitest";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";

const SKILL_V1 = "# Browser skill\n\nAnswer with the **title** of the passage.\n\n| rule | weight |\n|---|---|\n| short answers | 2 |\n";
const SKILL_V2 = `${SKILL_V1}\n- Prefer names over descriptions.\n- Keep the answer under five words.\n`;
const XSS_SKILL = '# Hostile skill\n\n<script>window.__xss=1</script><img src=x onerror="window.__xss=2">\n\nPlain rule after the HTML.\n';

describe("skills pages (browser)", () => {
  const app = useBrowserApp({ viewport: { width: 1280, height: 900 } });

  /** Picks a file through the file input (as a user would), fills the name and note, submits. */
  async function uploadFile(name: string, fileName: string, text: string, note = "") {
    const { page } = app.browser;
    await page.goto(`${app.baseURL}/skills`);
    await page.getByLabel("Skill name").fill(name);
    await page.getByLabel("Skill file").setInputFiles({ name: fileName, mimeType: "text/markdown", buffer: Buffer.from(text, "utf8") });
    // The textarea shows the text with LF line ends (as every textarea does); what is sent is exact.
    await expect.poll(() => page.getByLabel("Skill text").inputValue()).toBe(text.replace(/\r\n/g, "\n"));
    if (note) await page.getByLabel("Note (optional)").fill(note);
    await page.getByRole("button", { name: "Upload skill" }).click();
    return page.locator("main").getByRole("status").filter({ hasText: /Stored|Unchanged/ });
  }

  it("uploads a skill from a file, lists it, and reports the same text again as unchanged", async () => {
    const { page } = app.browser;
    const stored = await uploadFile("browser-skill", "browser-skill.md", SKILL_V1, "first draft");
    await expect.poll(() => stored.innerText()).toContain("Stored version 1 of “browser-skill”");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "browser-skill", exact: true }) });
    await expect.poll(() => row.innerText()).toMatch(/v1\s+1\s+–/);

    const unchanged = await uploadFile("browser-skill", "browser-skill.md", SKILL_V1);
    await expect.poll(() => unchanged.innerText()).toContain("Unchanged: this text is already version 1 of “browser-skill”");

    const second = await uploadFile("browser-skill", "browser-skill-v2.md", SKILL_V2, "two more rules");
    await expect.poll(() => second.innerText()).toContain("Stored version 2 of “browser-skill”");
    await expect.poll(() => row.innerText()).toMatch(/v2\s+2\s+–/);
    // The datalist offers existing names, the demo's included.
    expect(await page.locator("#skill-names option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(
      expect.arrayContaining(["browser-skill", "searchqa"]),
    );
    await screenshot(page, "skills");
    expect(app.browser.errors).toEqual([]);
  });

  it("refuses a wrong extension, an oversized file and empty text in the form, storing nothing", async () => {
    const { page } = app.browser;
    await page.goto(`${app.baseURL}/skills`);
    const rowsBefore = await page.getByRole("row").count();
    await page.getByLabel("Skill file").setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
    await expect.poll(() => page.locator("main").getByRole("alert").innerText()).toContain("notes.pdf is not a skill document");
    await page.getByLabel("Skill file").setInputFiles({ name: "huge.md", mimeType: "text/markdown", buffer: Buffer.alloc(1024 * 1024 + 10, "a") });
    await expect.poll(() => page.locator("main").getByRole("alert").innerText()).toContain("huge.md is 1.0 MB; a skill document can be at most 1.0 MB");

    await page.getByLabel("Skill name").fill("empty-skill");
    await page.getByLabel("Skill text").fill("   ");
    await page.getByRole("button", { name: "Upload skill" }).click();
    await expect.poll(() => page.locator("main").getByRole("alert").innerText()).toContain("The skill text is empty");
    await page.reload();
    expect(await page.getByRole("row").count()).toBe(rowsBefore);
  });

  it("shows a version rendered, raw and as the exact system prompt, and downloads its exact text", async () => {
    const { page } = app.browser;
    await page.goto(`${app.baseURL}/skills`);
    await page.getByRole("link", { name: "browser-skill", exact: true }).click();
    await page.waitForURL(/\/skills\/\d+$/);
    await expect.poll(() => page.locator("main h1").first().innerText()).toBe("browser-skill");
    const versions = page.locator("table").first();
    await expect.poll(() => versions.innerText()).toMatch(/v2[\s\S]*two more rules[\s\S]*v1[\s\S]*first draft/);

    const panel = page.getByRole("tabpanel");
    // Rendered: markdown headings, bold and GFM tables become elements.
    expect(await panel.locator("h1").innerText()).toBe("Browser skill");
    expect(await panel.locator("strong").innerText()).toBe("title");
    expect(await panel.locator("table td").first().innerText()).toBe("short answers");
    await screenshot(page, "skill");

    await page.getByRole("tab", { name: "Raw" }).click();
    await page.waitForURL(/tab=raw/);
    expect(await page.getByRole("tabpanel").locator("pre").textContent()).toBe(SKILL_V2);

    await page.getByRole("tab", { name: "System prompt" }).click();
    await page.waitForURL(/tab=prompt/);
    const prompt = (await page.getByRole("tabpanel").locator("pre").textContent()) ?? "";
    expect(prompt).toContain(`## Skill\n${SKILL_V2.trim()}\n\n`);
    await screenshot(page, "skill-system-prompt");

    // The version selector switches to v1 and keeps the tab.
    await page.getByLabel("Version", { exact: true }).selectOption("1");
    await page.waitForURL(/version=1&tab=prompt/);
    expect(await page.getByRole("tabpanel").locator("pre").textContent()).not.toContain("Prefer names");

    const href = await page.getByRole("link", { name: "New run with this version" }).getAttribute("href");
    expect(href).toMatch(/^\/runs\/new\?skillVersionId=\d+$/);

    const download = await page.request.get(`${app.baseURL}${await page.getByRole("link", { name: "Download .md" }).last().getAttribute("href")}`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="skillboard-skill-\d+-browser-skill\.md"$/);
    expect(await download.text()).toBe(SKILL_V1);
  });

  it("stores pasted text with Windows line endings exactly as read from the file", async () => {
    const { page } = app.browser;
    const crlf = "# CRLF skill\r\n\r\nLine one.\r\nLine two.\r\n";
    const stored = await uploadFile("crlf-skill", "crlf.txt", crlf);
    await expect.poll(() => stored.innerText()).toContain("Stored version 1");
    await stored.getByRole("link").click();
    await page.waitForURL(/\/skills\/\d+\?version=1/);
    const download = await page.request.get(`${app.baseURL}${await page.getByRole("link", { name: "Download .md" }).last().getAttribute("href")}`);
    expect(JSON.stringify(await download.text())).toBe(JSON.stringify(crlf));
  });

  it("never runs HTML inside a skill, in any view", async () => {
    const { page } = app.browser;
    const stored = await uploadFile("hostile-skill", "hostile.md", XSS_SKILL);
    await expect.poll(() => stored.innerText()).toContain("Stored version 1");
    await stored.getByRole("link").click();
    await page.waitForURL(/\/skills\/\d+\?version=1/);
    const url = page.url();
    for (const tab of ["", "&tab=raw", "&tab=prompt"]) {
      await page.goto(`${url}${tab}`);
      await page.waitForLoadState("load");
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.getByRole("tabpanel").locator("script, img").count()).toBe(0);
      expect(await page.getByRole("tabpanel").innerText()).toContain("Plain rule after the HTML.");
    }
    // The rendered view shows the HTML as inert text.
    await page.goto(url);
    expect(await page.getByRole("tabpanel").innerText()).toContain("<script>window.__xss=1</script>");
  });
});
