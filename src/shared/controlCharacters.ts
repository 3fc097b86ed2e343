// The one rule for control characters in text we accept or log: C0 (U+0000-U+001F: NUL, tabs, line
// breaks, escapes) and DEL (U+007F). Ids and free text end up in logs, Kafka keys, SQL rows and operator
// views, where such a character can split a line, end a string early or move a terminal's cursor.
// Unicode line separators and emoji are ordinary text. Before this rule the GraphQL arguments, the
// outbox filters and the dead-letter replay refused C0 only while orders also refused DEL; the stricter
// of the two now holds everywhere (and log summaries blank both).

/** True when the text holds a C0 control character or DEL. */
export function hasControlCharacters(text: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(text);
}

/** The text with each run of control characters replaced by `by` (log lines stay one line). */
export function replaceControlCharacters(text: string, by: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, by);
}
