// The one typed literal formatter for ClickHouse SQL. ClickHouse 18.16 has no server-side query
// parameters, so every value that reaches SQL text goes through these functions. Each returns a
// complete, self-delimiting literal; nothing else may concatenate user values into SQL.

/** A String literal: single-quoted with backslash escapes for every byte ClickHouse treats specially. */
export function str(value: string): string {
  let out = "'";
  for (const ch of value) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '\0':
        out += '\\0';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      default:
        out += ch;
    }
  }
  return out + "'";
}

/** An unsigned 64-bit integer literal, from a number, bigint or decimal string; rejects anything else. */
export function uint(value: number | bigint | string): string {
  const s =
    typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : Number.isSafeInteger(value) ? String(value) : 'x';
  if (!/^(0|[1-9][0-9]{0,19})$/.test(s) || BigInt(s) > 18446744073709551615n)
    throw new TypeError(`not an unsigned integer: ${String(value).slice(0, 40)}`);
  return s;
}

/** A signed 64-bit integer literal. */
export function int(value: number | bigint | string): string {
  const s =
    typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : Number.isSafeInteger(value) ? String(value) : 'x';
  if (!/^-?(0|[1-9][0-9]{0,18})$/.test(s)) throw new TypeError(`not an integer: ${String(value).slice(0, 40)}`);
  const b = BigInt(s);
  if (b > 9223372036854775807n || b < -9223372036854775808n) throw new TypeError('integer out of Int64 range');
  return s;
}

/** A Decimal(P, S) literal built with toDecimal64 from a canonical decimal string (exact, no float). */
export function decimal(value: string, scale: number): string {
  if (!/^-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,9})?$/.test(value)) throw new TypeError(`not a decimal: ${value.slice(0, 40)}`);
  if (!Number.isInteger(scale) || scale < 0 || scale > 9) throw new TypeError('bad decimal scale');
  return `toDecimal64(${str(value)}, ${scale})`;
}

/** A DateTime literal (second precision, UTC) from a Date. */
export function dateTime(value: Date): string {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new TypeError('not a valid Date');
  return `toDateTime(${str(value.toISOString().slice(0, 19).replace('T', ' '))}, 'UTC')`;
}

/** A Date literal (day precision) from a Date. */
export function date(value: Date): string {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new TypeError('not a valid Date');
  return `toDate(${str(value.toISOString().slice(0, 10))})`;
}

export function bool(value: boolean): string {
  if (typeof value !== 'boolean') throw new TypeError('not a boolean');
  return value ? '1' : '0';
}

/** A parenthesised, comma-separated list for IN (...); an empty list is rejected (invalid SQL). */
export function list<T>(values: readonly T[], one: (v: T) => string): string {
  if (values.length === 0) throw new TypeError('empty list');
  return `(${values.map(one).join(', ')})`;
}

/** A database/table/column identifier: only [A-Za-z_][A-Za-z0-9_]* is accepted, backquoted. */
export function ident(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name)) throw new TypeError(`not a safe identifier: ${name.slice(0, 40)}`);
  return '`' + name + '`';
}
