import { z } from "zod";
import { guardedRoute } from "@/app/_lib/http";
import { idSchema, OptimizationIdSchema } from "@/app/_lib/ids";
import { getDb, getOptimizerCallText } from "@/lib/db";

const ParamsSchema = z.object({ id: OptimizationIdSchema, callId: idSchema("call id") });

/** One optimizer call's text (system prompt, user message, raw reply), fetched when a person opens it on a step page. */
export const GET = guardedRoute({ params: ParamsSchema }, async (_request, { params }) =>
  Response.json(await getOptimizerCallText(getDb(), params.id, params.callId), { headers: { "Cache-Control": "no-store" } }),
);
