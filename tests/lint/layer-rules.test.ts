/**
 * The layer rules live in eslint.config.mjs (lint runs in CI); this proves each one fires on a file that breaks it and
 * stays quiet on one that keeps it, so a rule cannot silently stop working after a config change.
 */
import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe("layer rules", () => {
  it.each([
    ["lib/eval/probe.ts", "knows nothing of React", 'import { useState } from "react";\nexport const x = useState;\n'],
    ["lib/eval/probe.ts", "knows nothing of React", 'import { redirect } from "next/navigation";\nexport const x = redirect;\n'],
    ["lib/rollout/probe.ts", "Only lib/db talks to Prisma", 'import { PrismaClient } from "../../generated/prisma/client";\nexport const x = PrismaClient;\n'],
    ["app/runs/probe.ts", "Only lib/db talks to Prisma", 'import { PrismaClient } from "@/generated/prisma/client";\nexport const x = PrismaClient;\n'],
    ["lib/db/probe.ts", "lib/db is below the executor", 'import { executeRun } from "../rollout";\nexport const x = executeRun;\n'],
    ["lib/db/probe.ts", "lib/db is below the executor", 'import { startRunWorker } from "@/lib/rollout/run-worker";\nexport const x = startRunWorker;\n'],
    ["app/compare/probe.ts", "Route folders do not import each other", 'import { RunsTable } from "../runs/runs-table";\nexport const x = RunsTable;\n'],
    ["app/skills/probe.ts", "Route folders do not import each other", 'import { DatasetStats } from "@/app/datasets/[id]/dataset-stats";\nexport const x = DatasetStats;\n'],
    ["app/runs/probe.tsx", "Import Link from @/app/_components/link", 'import Link from "next/link";\nexport const x = Link;\n'],
  ])("%s: refused with \"%s…\"", async (filePath, expected, code) => {
    const messages = await ruleIds(filePath, code);
    expect(messages.join("\n")).toContain(expected);
  });

  it.each([
    ["lib/db/probe.ts", 'import { RunConfigSchema } from "../runs/run-config";\nexport const x = RunConfigSchema;\n'],
    ["lib/rollout/probe.ts", 'import { getRun } from "../db";\nexport const x = getRun;\n'],
    ["app/compare/probe.ts", 'import { FileDropZone } from "../_components/file-drop-zone";\nexport const x = FileDropZone;\n'],
    ["app/runs/probe.tsx", 'import Link from "@/app/_components/link";\nexport const x = Link;\n'],
  ])("%s: an import along the layers is allowed (%s)", async (filePath, code) => {
    expect(await ruleIds(filePath, code)).toEqual([]);
  });
});
