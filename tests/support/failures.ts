import { DatasetValidationError, parseDatasetText } from "@/lib/datasets";

/** The validation error parsing `text` as `fileName` must raise. */
export function datasetFailure(text: string, fileName: string): DatasetValidationError {
  try {
    parseDatasetText(text, { fileName });
  } catch (error) {
    if (error instanceof DatasetValidationError) return error;
    throw error;
  }
  throw new Error("expected a DatasetValidationError");
}

/** The error a promise must reject with. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}
