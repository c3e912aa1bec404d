import { iterateDatasetItemPages, type Db } from "../db";
import { joinedInChunks } from "./byte-stream";

/**
 * A dataset as JSONL in file order, one item per line in the form the dataset importer reads back: id, question,
 * answers, context, diagnostic_trace_context (when set), and the item's other fields (its metadata) before them.
 */
export async function* exportDatasetItems(db: Db, datasetId: number): AsyncGenerator<string> {
  for await (const page of iterateDatasetItemPages(db, datasetId)) {
    yield* joinedInChunks(
      page.map((item) =>
        `${JSON.stringify({
          ...item.metadata,
          id: item.id,
          question: item.question,
          answers: item.answers,
          context: item.context,
          ...(item.diagnosticTraceContext !== undefined ? { diagnostic_trace_context: item.diagnosticTraceContext } : {}),
        })}\n`,
      ),
    );
  }
}
