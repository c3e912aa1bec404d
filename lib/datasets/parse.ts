import { basename } from "node:path";
import type { DatasetReader } from "./collector";
import { CsvDatasetReader } from "./csv";
import { formatFromContent, formatFromExtension } from "./detect";
import { DatasetValidationError } from "./errors";
import { reusedFileChunks } from "./file-chunks";
import { JsonDatasetReader } from "./json";
import { JsonlDatasetReader } from "./jsonl";
import { MAX_RECORD_CHARS } from "./limits";
import type { DatasetFormat, DatasetItem } from "./types";
import { sourceChunks } from "./source-chunks";
import { runShared, runToEnd, shareEventLoop } from "./time-slice";
import { NOT_UTF8_MESSAGE, Utf8ChunkDecoder } from "../text/utf8";

export interface ParseOptions {
  /** Used in every error message, and for format detection by extension. */
  fileName: string;
  /** Overrides detection. */
  format?: DatasetFormat;
}

export type DatasetSource = AsyncIterable<string | Uint8Array> | ReadableStream<string | Uint8Array>;

/** Parses a whole text held in memory. Throws DatasetValidationError listing every problem. */
export function parseDatasetText(text: string, options: ParseOptions): DatasetItem[] {
  const parser = new DatasetParser(options);
  parser.push(text);
  return runToEnd(parser.finish());
}

/**
 * Parses text or UTF-8 bytes as they arrive: JSONL and CSV records are validated chunk by chunk, so a
 * large upload is never held whole (JSON is, because it can only be parsed whole). Shares the event loop
 * between chunks and steps: in the dashboard, other requests and runs go on while a large file is read.
 */
export async function parseDatasetStream(source: DatasetSource, options: ParseOptions): Promise<DatasetItem[]> {
  const parser = new DatasetParser(options);
  for await (const pieces of decodeUtf8(source, options.fileName)) {
    for (const text of pieces) parser.push(text);
    await shareEventLoop();
  }
  return runShared(parser.finish());
}

/** Streams a file from disk; the file name in messages defaults to the path's base name. */
export async function parseDatasetFile(path: string, options: Partial<ParseOptions> = {}): Promise<DatasetItem[]> {
  const fileName = options.fileName ?? basename(path);
  return parseDatasetStream(reusedFileChunks(path), { ...options, fileName });
}

/**
 * Reads a file and hands over its validated items in batches as it goes (JSON Lines and CSV; a JSON file all at the
 * end), so an import can store them without the file's items ever being held together. If anything in the file is
 * wrong, it throws DatasetValidationError at the end, listing every problem, after the batches it already handed over:
 * the caller must then drop what it stored.
 */
export async function* streamDatasetFile(path: string, options: Partial<ParseOptions> = {}): AsyncGenerator<DatasetItem[]> {
  const fileName = options.fileName ?? basename(path);
  const parser = new DatasetParser({ ...options, fileName });
  // The decoder copies each chunk's text out before the next read reuses its buffer.
  for await (const pieces of decodeUtf8(reusedFileChunks(path), fileName)) {
    for (const text of pieces) parser.push(text);
    const items = parser.takeItems();
    if (items.length > 0) yield items;
    await shareEventLoop();
  }
  const rest = await runShared(parser.finish());
  if (rest.length > 0) yield rest;
}

function createReader(format: DatasetFormat, fileName: string): DatasetReader {
  switch (format) {
    case "json":
      return new JsonDatasetReader(fileName);
    case "jsonl":
      return new JsonlDatasetReader(fileName);
    case "csv":
      return new CsvDatasetReader(fileName);
  }
}

/**
 * Strips a byte order mark, picks the reader (override, extension, or else the first characters —
 * buffering only until they decide), and forwards text to it.
 */
class DatasetParser {
  private reader: DatasetReader | undefined;
  /** Text held back until the content decides the format. */
  private head: string[] = [];
  private headLength = 0;
  private firstNonSpace: string | undefined;
  private atStart = true;

  constructor(private readonly options: ParseOptions) {
    const format = options.format ?? formatFromExtension(options.fileName);
    if (format !== undefined) this.reader = createReader(format, options.fileName);
  }

  push(chunk: string): void {
    let text = chunk;
    if (this.atStart && text !== "") {
      if (text.startsWith("\uFEFF")) text = text.slice(1);
      this.atStart = false;
    }
    if (this.reader !== undefined) {
      this.reader.push(text);
      return;
    }
    this.head.push(text);
    this.headLength += text.length;
    // Content detection needs the first non-space character, and after a "{" the end of the first line;
    // re-joining the head only when that may have arrived keeps a long first line from being copied per chunk.
    this.firstNonSpace ??= /\S/.exec(text)?.[0];
    if (this.firstNonSpace === undefined || (this.firstNonSpace === "{" && !text.includes("\n"))) {
      // A first line past the record limit is refused as one anyway; JSON Lines does that without holding it.
      if (this.headLength > MAX_RECORD_CHARS) this.reader = this.startReader("jsonl");
      return;
    }
    const format = formatFromContent(this.head.join(""), false);
    if (format !== undefined) this.reader = this.startReader(format);
  }

  takeItems(): DatasetItem[] {
    return this.reader?.takeItems() ?? [];
  }

  finish(): Generator<void, DatasetItem[]> {
    this.reader ??= this.startReader(formatFromContent(this.head.join(""), true) ?? "csv");
    return this.reader.finish();
  }

  private startReader(format: DatasetFormat): DatasetReader {
    const reader = createReader(format, this.options.fileName);
    const head = this.head.join("");
    this.head = [];
    reader.push(head);
    return reader;
  }
}

/**
 * Decodes byte chunks as UTF-8 (a multi-byte character may be split across chunks); strings pass through. Yields the
 * text of each chunk as pieces (Utf8ChunkDecoder: a 1 MB read is not decoded into one 1 MB string).
 */
async function* decodeUtf8(source: DatasetSource, fileName: string): AsyncGenerator<string[]> {
  // keepBom: DatasetParser strips the mark the same way for text and bytes.
  const decoder = new Utf8ChunkDecoder({ keepBom: true });
  const decode = (bytes?: Uint8Array): string[] => {
    try {
      return bytes === undefined ? [decoder.end()].filter((text) => text !== "") : decoder.write(bytes);
    } catch {
      throw new DatasetValidationError(fileName, [{ message: NOT_UTF8_MESSAGE }]);
    }
  };
  for await (const chunk of sourceChunks(source)) {
    yield typeof chunk === "string" ? [...decode(), chunk] : decode(chunk);
  }
  yield decode();
}
