// The control-character rule every text check and log summary shares: C0 and DEL, nothing else.
import { hasControlCharacters, replaceControlCharacters } from './controlCharacters';

describe('control characters', () => {
  it('finds C0 characters and DEL', () => {
    for (const c of ['\u0000', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f']) expect(hasControlCharacters(`a${c}b`)).toBe(true);
  });

  it('leaves printable text, Unicode separators and emoji alone', () => {
    for (const s of ['plain', "O'Brien", 'unicode: 학교 ✓ \u2028 \uD83D\uDE00', ' ~', '']) expect(hasControlCharacters(s)).toBe(false);
  });

  it('replaces each run of them', () => {
    expect(replaceControlCharacters('line\nbreak\r\ttab\u007fend', ' ')).toBe('line break tab end');
    expect(replaceControlCharacters('clean', ' ')).toBe('clean');
  });
});
