import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { getDataset, getDatasetSplitByPart, getDb, listDatasetItemsPage, listDatasetSplitsOf } from "@/lib/db";
import { parseIdParam } from "../../_lib/ids";
import { foundOrNotFound, idOrNotFound } from "../../_lib/not-found";
import type { SearchParams } from "../../_lib/search-params";
import { formatCount, formatDateTime } from "@/app/_lib/format";
import styles from "./dataset-page.module.css";
import { DatasetItemsPreview } from "./dataset-items-preview";
import { DatasetStatsView } from "./dataset-stats";
import { SplitOf, SplitsOfSource } from "./dataset-splits";

// Reads the database on every request.
export const dynamic = "force-dynamic";

const ITEMS_PER_PAGE = 20;

interface DatasetPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}

export async function generateMetadata({ params }: DatasetPageProps): Promise<Metadata> {
  const id = parseIdParam((await params).id);
  if (id === undefined) return {};
  try {
    return { title: (await getDataset(getDb(), id)).name };
  } catch {
    return {};
  }
}

export default async function DatasetPage({ params, searchParams }: DatasetPageProps) {
  const dataset = await foundOrNotFound(getDataset(getDb(), idOrNotFound((await params).id)));
  const pageCount = Math.max(1, Math.ceil(dataset.itemCount / ITEMS_PER_PAGE));
  // A page past the end shows the last one rather than an empty table.
  const page = Math.min(parseIdParam((await searchParams).page) ?? 1, pageCount);
  const offset = (page - 1) * ITEMS_PER_PAGE;
  const [items, partOf, splits] = await Promise.all([
    listDatasetItemsPage(getDb(), dataset.id, { offset, limit: ITEMS_PER_PAGE }),
    getDatasetSplitByPart(getDb(), dataset.id),
    listDatasetSplitsOf(getDb(), dataset.id),
  ]);

  return (
    <>
      <p className={styles.breadcrumb}>
        <Link href="/datasets">Datasets</Link> /
      </p>
      <div className={styles.header}>
        <div>
          <h1 className={styles.title}>{dataset.name}</h1>
          <p className="muted">
            {dataset.fileName} · {dataset.format.toUpperCase()} · {formatCount(dataset.itemCount)} items · uploaded{" "}
            {formatDateTime(dataset.createdAt)} ·{" "}
            {/* sha256 is the file's (what `sha256sum` prints); the items hash recognises the same data in any format. */}
            {dataset.fileSha256 ? (
              <span title="sha256 of the uploaded file, as sha256sum prints it">
                sha256 <code title={dataset.fileSha256} data-testid="dataset-file-sha256">{dataset.fileSha256.slice(0, 10)}</code>
              </span>
            ) : (
              <span title="this dataset was stored before file hashes were recorded">sha256 not recorded</span>
            )}{" "}
            ·{" "}
            <span title="sha256 of the parsed items in canonical JSON: the same data in another format or field order has the same one">
              items hash <code title={dataset.hash}>{dataset.hash.slice(0, 10)}</code>
            </span>
          </p>
          {partOf ? <SplitOf split={partOf.split} datasetId={dataset.id} /> : null}
        </div>
        <div>
          <a className="button" href={`/api/datasets/${dataset.id}/items`} download>Download JSONL</a>{" "}
          <Link className="button primary" href={`/runs/new?datasetId=${dataset.id}`}>
            New run on this dataset
          </Link>
        </div>
      </div>

      {splits.length > 0 ? <SplitsOfSource splits={splits} /> : null}

      <h2>Statistics</h2>
      <DatasetStatsView stats={dataset.stats} />

      <h2 id="items">Items</h2>
      <p className="muted">
        Items {formatCount(offset + 1)}–{formatCount(offset + items.length)} of {formatCount(dataset.itemCount)}, in file order.
      </p>
      <DatasetItemsPreview datasetId={dataset.id} items={items} page={page} pageCount={pageCount} firstOrdinal={offset} />
    </>
  );
}
