import Link from "@/app/_components/link";
import { describeKey } from "@/lib/datasets/split-dataset";
import type { DatasetSplitRecord } from "@/lib/db";
import { formatCount } from "@/app/_lib/format";
import type { SplitName } from "@/lib/optimize/splits";

const PARTS: readonly SplitName[] = ["train", "val", "test"];

/** "train 2 · val 1 · test 9", each linking to its part (the one being shown is not a link). */
function PartLinks({ split, current }: { split: DatasetSplitRecord; current?: number }) {
  return (
    <>
      {PARTS.map((name, index) => {
        const part = split.parts[name];
        const label = `${name} ${formatCount(part.itemCount)}`;
        return (
          <span key={name}>
            {index > 0 ? " · " : ""}
            {part.datasetId === current ? <strong>{label}</strong> : <Link href={`/datasets/${part.datasetId}`}>{label}</Link>}
          </span>
        );
      })}
    </>
  );
}

/** For a split part: which dataset it was split from and how. */
export function SplitOf({ split, datasetId }: { split: DatasetSplitRecord; datasetId: number }) {
  return (
    <p data-testid="dataset-split-of">
      Split of <Link href={`/datasets/${split.sourceDatasetId}`}>{split.sourceName}</Link> ({describeKey(split)}):{" "}
      <PartLinks split={split} current={datasetId} />
    </p>
  );
}

/** For a dataset that was split: each of its splits. */
export function SplitsOfSource({ splits }: { splits: readonly DatasetSplitRecord[] }) {
  return (
    <>
      <h2 id="splits">Splits</h2>
      <ul data-testid="dataset-splits">
        {splits.map((split) => (
          <li key={split.id}>
            {describeKey(split)}: <PartLinks split={split} />
          </li>
        ))}
      </ul>
    </>
  );
}
