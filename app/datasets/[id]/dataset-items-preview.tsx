import Link from "@/app/_components/link";
import type { StoredDatasetItem } from "@/lib/db";
import { formatCount } from "@/app/_lib/format";
import { codePointLength } from "@/lib/text/python";
import { BLOCK_TEXT_CHARS, CELL_TEXT_CHARS, LIST_ITEMS, ShownText } from "../../_components/shown-text";
import styles from "./dataset-page.module.css";

/** How much of a context the table shows; more (up to BLOCK_TEXT_CHARS, then the download) is one click away in a <details>. */
const CONTEXT_PREVIEW_CHARS = 300;

interface ItemsPreviewProps {
  datasetId: number;
  items: StoredDatasetItem[];
  page: number;
  pageCount: number;
  firstOrdinal: number;
}

/** One page of items. Every field is cut (see shown-text.tsx), so a page costs the same whatever the data holds. */
export function DatasetItemsPreview({ datasetId, items, page, pageCount, firstOrdinal }: ItemsPreviewProps) {
  // The whole of a long field is in the download.
  const downloadHref = `/api/datasets/${datasetId}/items`;
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
              <td className={styles.itemId}><ShownText text={item.id} max={CELL_TEXT_CHARS} /></td>
              <td className={styles.question}><ShownText text={item.question} max={CELL_TEXT_CHARS} moreHref={downloadHref} /></td>
              <td className={styles.answers}>
                <ul>
                  {item.answers.slice(0, LIST_ITEMS).map((answer, answerIndex) => (
                    <li key={answerIndex}><ShownText text={answer} max={CELL_TEXT_CHARS} moreHref={downloadHref} /></li>
                  ))}
                </ul>
                {item.answers.length > LIST_ITEMS ? <span className="muted">and {formatCount(item.answers.length - LIST_ITEMS)} more</span> : null}
              </td>
              <td className={styles.context}>
                <ContextCell context={item.context} downloadHref={downloadHref} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination datasetId={datasetId} page={page} pageCount={pageCount} />
    </>
  );
}

function ContextCell({ context, downloadHref }: { context: string; downloadHref: string }) {
  if (context === "") return <span className="muted">(empty)</span>;
  if (context.length <= CONTEXT_PREVIEW_CHARS) return <ShownText text={context} max={CONTEXT_PREVIEW_CHARS} />;
  return (
    <>
      <ShownText text={context} max={CONTEXT_PREVIEW_CHARS} />
      <details>
        <summary>Full context ({formatCount(codePointLength(context))} characters)</summary>
        <div className={styles.fullContext}><ShownText text={context} max={BLOCK_TEXT_CHARS} moreHref={downloadHref} /></div>
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
