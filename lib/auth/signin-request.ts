/**
 * Reads a sign-in request: an HTML form (urlencoded or multipart) or JSON, both `{ token, next? }`.
 * The body is read up to a small limit, since this endpoint is open to anyone who can reach the server.
 */

import { z } from "zod";

const MAX_BODY_BYTES = 16 * 1024;

const signInFieldsSchema = z.object({
  token: z.string().min(1).max(4096),
  next: z.string().max(2048).optional(),
});

export type SignInFields = z.infer<typeof signInFieldsSchema>;

export type SignInRequest =
  | { ok: true; json: boolean; fields: SignInFields }
  | { ok: false; json: boolean; next: unknown };

export async function readSignInRequest(request: Request): Promise<SignInRequest> {
  const contentType = request.headers.get("content-type") ?? "";
  const json = /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
  const body = await readBodyUpTo(request, MAX_BODY_BYTES);
  const raw = body === undefined ? undefined : json ? parseJson(body) : await parseForm(body, contentType);
  const parsed = signInFieldsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, json, fields: parsed.data };
  const next = raw && typeof raw === "object" && "next" in raw ? raw.next : undefined;
  return { ok: false, json, next };
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}

async function parseForm(body: Uint8Array<ArrayBuffer>, contentType: string): Promise<Record<string, unknown> | undefined> {
  try {
    const form = await new Response(body, { headers: { "content-type": contentType } }).formData();
    return Object.fromEntries(form.entries());
  } catch {
    return undefined;
  }
}

/** The whole body, or undefined when it is larger than `limit` bytes (chunked bodies included). */
async function readBodyUpTo(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return undefined;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
