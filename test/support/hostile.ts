/** Strings that break naive quoting: used by literal-formatter and hostile-input tests. */
export const hostileStrings = [
  'plain',
  "O'Brien",
  "'; DROP TABLE x; --",
  "back\\slash\\' trick",
  'nul\0byte',
  'line\nbreak\r\ttab',
  '/* comment */ -- tail',
  'unicode: 학교 ✓ \u2028 \uD83D\uDE00',
  '\\',
  "'",
  '',
];
