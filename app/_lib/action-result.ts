/**
 * What every server action returns to its form: success with an optional message for the user and the data the form
 * needs (a new version's id, whether anything changed), or failure with the message to show and, for a form, the
 * message of each field. One shape, so every form reads a result the same way. Pure: client components import it.
 */
import { NotFoundError } from "@/lib/db/errors";

export interface ActionFailure<Field extends string = string> {
  ok: false;
  error: string;
  fields?: Partial<Record<Field, string>>;
}

export type ActionSuccess<Data = void> = Data extends void ? { ok: true; message?: string } : { ok: true; message?: string; data: Data };

export type ActionResult<Data = void, Field extends string = string> = ActionSuccess<Data> | ActionFailure<Field>;

/** Domain errors become a message for the user; anything unexpected is still a message, never a stack trace. */
export function actionFailure(error: unknown): ActionFailure {
  if (error instanceof NotFoundError) return { ok: false, error: `${error.entity} ${error.id} not found` };
  return { ok: false, error: error instanceof Error ? error.message : String(error) };
}
