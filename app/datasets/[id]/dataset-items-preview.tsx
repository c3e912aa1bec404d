import Link from "next/link";
import type { StoredDatasetItem } from "@/lib/db";
import { formatCount } from "@/app/_lib/format";
import styles from "./dataset-page.module.css";

/** How much of a context the table shows; the rest is one click away in a <details>. */
const CONTEXT_PREVIEW_CHARS = 300;

/** The first `max` characters (code points, so an emoji is never split), with an ellipsis when cut. */
function clip(text: string, max: number): { text: string; clipped: boolean } {
  const chars = Array.from(text);
  return chars.length <= max ? { text, clipped: false } : { text: `${chars.slice(0, max).join("")}…`, clipped: true };
}

interface ItemsPreviewProps {
  datasetId: number;
  items: StoredDatasetItem[];
  page: number;
  pageCount: number;
  firstOrdinal: number;
}

export function DatasetItemsPreview({ datasetId, items, page, pageCount, firstOrdinal }: ItemsPreviewProps) {
  return (
    <>
      <table className={styles.items}>
        <thead>
          <tr>
            <th className="num">#</th>
            <th>Id</th>
            <th>Question</th>
            <th>Answers</th>
            <th>Context</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <tr key={item.datasetItemId}>
              <td className="num muted">{formatCount(firstOrdinal + index + 1)}</td>
              <td className={styles.itemId}>{item.id}</td>
              <td className={styles.question}>{item.question}</td>
              <td className={styles.answers}>
                <ul>
                  {item.answers.map((answer, answerIndex) => (
                    <li key={answerIndex}>{answer}</li>
                  ))}
                </ul>
              </td>
              <td className={styles.context}>
                <ContextCell context={item.context} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination datasetId={datasetId} page={page} pageCount={pageCount} />
    </>
  );
}

function ContextCell({ context }: { context: string }) {
  if (context === "") return <span className="muted">(empty)</span>;
  const preview = clip(context, CONTEXT_PREVIEW_CHARS);
  if (!preview.clipped) return <>{context}</>;
  return (
    <>
      {preview.text}
      <details>
        <summary>Full context ({formatCount(Array.from(context).length)} characters)</summary>
        <div className={styles.fullContext}>{context}</div>
      </details>
    </>
  );
}

function Pagination({ datasetId, page, pageCount }: { datasetId: number; page: number; pageCount: number }) {
  if (pageCount <= 1) return null;
  const href = (target: number) => `/datasets/${datasetId}?page=${target}#items`;
  return (
    <nav aria-label="Item pages" className={styles.pagination}>
      {page > 1 ? <Link href={href(page - 1)}>← Previous</Link> : <span className="muted">← Previous</span>}
      <span>
        Page {formatCount(page)} of {formatCount(pageCount)}
      </span>
      {page < pageCount ? <Link href={href(page + 1)}>Next →</Link> : <span className="muted">Next →</span>}
    </nav>
  );
}
