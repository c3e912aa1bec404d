/**
 * The one UTF-8 check for everything uploaded (datasets, results files, skills): bytes that are not UTF-8 (a Latin-1
 * export, a binary) are refused, never turned into silent replacement characters in questions, answers or prompts.
 */

/** What every upload says about such a file, after its name. */
export const NOT_UTF8_MESSAGE = "is not valid UTF-8 text (save it as UTF-8)";

/**
 * A fatal decoder for streamed bytes (a multi-byte character may be split across chunks). `keepBom`: leave a byte
 * order mark in the text, for readers that strip it the same way whether they were given text or bytes.
 */
export function strictUtf8Decoder(options: { keepBom?: boolean } = {}): TextDecoder {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: options.keepBom ?? false });
}

/** The text of whole UTF-8 bytes (a byte order mark removed), or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8Decoder().decode(bytes);
  } catch {
    return undefined;
  }
}
