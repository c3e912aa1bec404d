"use client";

import { usePathname, useRouter } from "next/navigation";

interface VersionSelectProps {
  versions: number[];
  selected: number;
  /** The open tab, kept when switching versions. */
  tab: string;
}

/** Switches the shown version by navigating to ?version=N, so every version has its own URL. */
export function VersionSelect({ versions, selected, tab }: VersionSelectProps) {
  const router = useRouter();
  const pathname = usePathname();
  return (
    <select
      aria-label="Version"
      value={selected}
      onChange={(event) => {
        const query = new URLSearchParams({ version: event.target.value });
        if (tab !== "rendered") query.set("tab", tab);
        router.push(`${pathname}?${query}`);
      }}
    >
      {versions.map((version) => (
        <option key={version} value={version}>
          Version {version}
        </option>
      ))}
    </select>
  );
}
