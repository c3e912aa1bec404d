import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { getDb, listDatasets } from "@/lib/db";
import { formatCount, formatDateTime } from "@/app/_lib/format";
import { DatasetUploadForm } from "./dataset-upload-form";
import styles from "./datasets.module.css";

// Reads the database on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  // Newest first: a fresh upload appears at the top.
  const datasets = (await listDatasets(getDb())).reverse();
  return (
    <>
      <h1>Datasets</h1>
      <div className={styles.layout}>
        <section aria-labelledby="dataset-list-heading">
          <h2 id="dataset-list-heading" className={styles.firstHeading}>
            All datasets
          </h2>
          {datasets.length === 0 ? (
            <p className="muted">No datasets yet. Upload a JSON, JSONL or CSV file of questions and answers.</p>
          ) : (
            <table aria-labelledby="dataset-list-heading">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>File</th>
                  <th className="num">Items</th>
                  <th>Format</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {datasets.map((dataset) => (
                  <tr key={dataset.id}>
                    <td className={styles.wrap}>
                      <Link href={`/datasets/${dataset.id}`}>{dataset.name}</Link>
                    </td>
                    <td className={`muted ${styles.wrap}`}>{dataset.fileName}</td>
                    <td className="num">{formatCount(dataset.itemCount)}</td>
                    <td>{dataset.format.toUpperCase()}</td>
                    <td className={`muted ${styles.nowrap}`}>{formatDateTime(dataset.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section aria-labelledby="dataset-upload-heading" className="card">
          <h2 id="dataset-upload-heading" className={styles.firstHeading}>
            Upload a dataset
          </h2>
          <DatasetUploadForm />
        </section>
      </div>
    </>
  );
}
