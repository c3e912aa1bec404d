import { codePointLength } from "./python";

/**
 * Dataset and model text as a page shows it. The HTML parser rewrites some characters of the server's HTML ("\r" and
 * "\r\n" become "\n", NUL becomes U+FFFD), and lone surrogates cannot be encoded at all, while React hydrates from the
 * original text: a question starting with "\r" made the item page fail to hydrate (React error #418). So control
 * characters other than tab and line feed are shown as their Unicode control pictures (␍ for "\r", ␀ for NUL, ␡ for
 * DEL) and lone surrogates as U+FFFD: the server and the browser render the same characters, and the reader sees them.
 */
export function visibleText(text: string): string {
  CONTROL_OR_LONE_SURROGATE.lastIndex = 0;
  if (!CONTROL_OR_LONE_SURROGATE.test(text)) return text;
  CONTROL_OR_LONE_SURROGATE.lastIndex = 0;
  return text.replace(CONTROL_OR_LONE_SURROGATE, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x7f) return "\u2421";
    return code < 0x20 ? String.fromCharCode(0x2400 + code) : "\uFFFD";
  });
}

const CONTROL_OR_LONE_SURROGATE = /[\u0000-\u0008\u000b-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export interface ClippedText {
  /** The beginning of the text, never splitting a character. */
  shown: string;
  /** Characters (code points) left out; 0 when the whole text is shown. */
  hidden: number;
}

/**
 * The first `max` characters of a text: what a page renders of a field, so that a page costs the same whatever the
 * length of the data (a field may hold 1,000,000 characters), with the rest counted for a "… N more characters" note.
 */
export function clipText(text: string, max: number): ClippedText {
  if (text.length <= max) return { shown: text, hidden: 0 };
  // Cut by code units, stepping back rather than splitting a surrogate pair.
  const high = text.charCodeAt(max - 1);
  const end = high >= 0xd800 && high <= 0xdbff ? max - 1 : max;
  const shown = text.slice(0, end);
  return { shown, hidden: codePointLength(text) - codePointLength(shown) };
}
