import Link from "@/app/_components/link";
import type { SkillVersionRecord } from "@/lib/db";
import { buildSystemPrompt } from "@/lib/prompts";
import { SkillMarkdown } from "./skill-markdown";
import styles from "./skill-page.module.css";

export const VERSION_TABS = [
  { key: "rendered", label: "Rendered" },
  { key: "raw", label: "Raw" },
  { key: "prompt", label: "System prompt" },
] as const;

export type VersionTab = (typeof VERSION_TABS)[number]["key"];

export function parseVersionTab(value: string | undefined): VersionTab {
  return VERSION_TABS.find((tab) => tab.key === value)?.key ?? "rendered";
}

/**
 * One version's text as rendered markdown, raw text, or the exact system prompt a run sends with it.
 * The tabs are links (?tab=…): the server renders only the open panel, and each view has a URL.
 */
export function VersionTabs({ skillId, version, tab }: { skillId: number; version: SkillVersionRecord; tab: VersionTab }) {
  return (
    <>
      <div role="tablist" aria-label="Version view" className={styles.tabs}>
        {VERSION_TABS.map((item) => {
          const query = new URLSearchParams({ version: String(version.version) });
          if (item.key !== "rendered") query.set("tab", item.key);
          const selected = item.key === tab;
          return (
            <Link
              key={item.key}
              id={`tab-${item.key}`}
              role="tab"
              aria-selected={selected}
              aria-controls="version-panel"
              href={`/skills/${skillId}?${query}`}
              scroll={false}
              className={selected ? `${styles.tab} ${styles.tabSelected}` : styles.tab}
            >
              {item.label}
            </Link>
          );
        })}
      </div>
      <div role="tabpanel" id="version-panel" aria-labelledby={`tab-${tab}`} className={styles.panel}>
        <VersionPanel version={version} tab={tab} />
      </div>
    </>
  );
}

function VersionPanel({ version, tab }: { version: SkillVersionRecord; tab: VersionTab }) {
  switch (tab) {
    case "rendered":
      return <SkillMarkdown text={version.content} />;
    case "raw":
      return <pre className={styles.text}>{version.content}</pre>;
    case "prompt":
      return (
        <>
          <p className="hint">
            The system message a run sends with this version, byte for byte. The user message then carries the question and
            its context (cut to 6000 characters).
          </p>
          <pre className={styles.text}>{buildSystemPrompt(version.content)}</pre>
        </>
      );
  }
}
