/** Where offsets of a text are, in 1-based lines and columns, for messages. */

/** 1-based line and column of an offset. */
export function lineAndColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let newline = text.indexOf("\n"); newline !== -1 && newline < offset; newline = text.indexOf("\n", newline + 1)) {
    line += 1;
    lineStart = newline + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Lines of ascending offsets in one pass over the text. */
export function linesAtOffsets(text: string, ascendingOffsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let newline = text.indexOf("\n");
  for (const offset of ascendingOffsets) {
    while (newline !== -1 && newline < offset) {
      line += 1;
      newline = text.indexOf("\n", newline + 1);
    }
    lines.push(line);
  }
  return lines;
}
