// POST /api/optimizations/import: the zip of a SkillOpt output directory, streamed to a temporary file (zips far over
// the old 10 MB server-action body limit), imported by the one zip importer; every error names the zip (and the file
// inside it) and stores nothing.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleSkillOptZipUpload } from "@/app/api/optimizations/import/zip-upload";
import { listOptimizations, listOptimizationSteps } from "@/lib/db";
import { makeZip } from "../support/zip-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const FIXTURE = join("tests", "fixtures", "skillopt-output");
let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

/** The zip as a browser sends it: in chunks, with its Content-Length. */
function upload(query: Record<string, string>, bytes: Buffer, chunkBytes = 1 << 20): Request {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + chunkBytes)));
      offset += chunkBytes;
    },
  });
  return new Request(`http://127.0.0.1/api/optimizations/import?${new URLSearchParams(query)}`, {
    method: "POST", body, headers: { "content-length": String(bytes.length), "content-type": "application/octet-stream" }, duplex: "half",
  } as RequestInit);
}

const uploads = () => readdirSync(tmpdir()).filter((name) => name.startsWith("skillboard-skillopt-upload-"));

describe("POST /api/optimizations/import", () => {
  it("imports a 24 MB zip (rollout files and all) streamed to disk, and leaves no temporary file", async () => {
    const before = uploads();
    const zip = makeZip({ dir: FIXTURE, prefix: "skillopt-output/", random: { "skillopt-output/steps/step_0001/rollouts/rollout.bin": 24 * 1024 * 1024 } });
    expect(zip.length).toBeGreaterThan(24 * 1024 * 1024);
    const response = await handleSkillOptZipUpload(t.db, upload({ fileName: "big run.zip", name: "topic skill" }, zip));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: number; message: string };
    expect(body.message).toMatch(/^Imported big run\.zip as optimisation #\d+: \d+ stages, \d+ new versions of topic skill/);
    const [imported] = await listOptimizations(t.db);
    expect(imported?.id).toBe(body.id);
    expect((await listOptimizationSteps(t.db, body.id)).length).toBeGreaterThan(1);
    expect(uploads()).toEqual(before);
  }, 60_000);

  it("names the zip and the file inside it, and stores nothing", async () => {
    const broken = await handleSkillOptZipUpload(t.db, upload({ fileName: "broken.zip" }, Buffer.from("PK\u0003\u0004 this is not a zip")));
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: string }).error).toMatch(/^Nothing was imported\. broken\.zip: not a readable zip file/);
    const bad = makeZip({ dir: FIXTURE, replace: { "history.json": "[{" } });
    const history = await handleSkillOptZipUpload(t.db, upload({ fileName: "bad-history.zip" }, bad));
    expect(history.status).toBe(400);
    expect(((await history.json()) as { error: string }).error).toMatch(/^Nothing was imported\. bad-history\.zip: history\.json: not valid JSON/);
    const notZip = await handleSkillOptZipUpload(t.db, upload({ fileName: "out.tar" }, bad));
    expect(notZip.status).toBe(400);
    expect(((await notZip.json()) as { error: string }).error).toBe("Nothing was imported. out.tar: not a .zip file (zip the SkillOpt output directory first)");
    expect(await listOptimizations(t.db)).toEqual([]);
  });

  it("413 past the limit, whether declared or only found while streaming, and stores nothing", async () => {
    const zip = makeZip({ dir: FIXTURE, prefix: "skillopt-output/", random: { "skillopt-output/noise.bin": 300_000 } });
    const declared = await handleSkillOptZipUpload(t.db, upload({ fileName: "large.zip" }, zip), { maxBytes: 100_000 });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: string }).error).toMatch(/^Nothing was imported\. large\.zip: .* MB, over the 200 MB limit of an upload/);
    // A body whose Content-Length says less than it sends is cut off where it passes the limit.
    const request = upload({ fileName: "lying.zip" }, zip, 16 * 1024);
    const lying = new Request(request, { headers: { "content-type": "application/octet-stream" }, duplex: "half" } as RequestInit);
    const streamed = await handleSkillOptZipUpload(t.db, lying, { maxBytes: 100_000 });
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: string }).error).toMatch(/^Nothing was imported\. lying\.zip: more than the 200 MB limit/);
    expect(await listOptimizations(t.db)).toEqual([]);
  });
});
