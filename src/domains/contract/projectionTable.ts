// The declarative spec of one ClickHouse projection table, written once by the domain that owns the
// table (src/domains/<domain>/projection/): its columns in table order, their ClickHouse types and
// decimal scales, which column is the aggregate key, the version, the deletion flag, a time, or
// provenance, and which fields a reconciliation compares. The insert line, the latest-state select,
// the read views, the reconciliation's column map and canonical fields are derived from it
// (projectionColumns.ts here; SQL text where it is used). The migrations stay the history of the
// tables; a spec test compares this spec with DESCRIBE TABLE on a real server.

/** A column's ClickHouse type: the few this project uses, valid on 18.16 and current releases. */
export type ColumnType =
  | { kind: 'uint'; bits: 8 | 16 | 32 | 64 }
  | { kind: 'string' }
  /** DateTime('UTC'), whole seconds; written from the epoch ms of its *_ms twin. */
  | { kind: 'dateTime' }
  /** Decimal(18, scale): written as exact canonical text in JSON number position. */
  | { kind: 'decimal'; scale: number }
  | { kind: 'array'; of: ColumnType };

/**
 *   key         the aggregate id (ORDER BY of the table)
 *   version     the business version (ReplacingMergeTree(version))
 *   isDeleted   the tombstone flag (UInt8)
 *   content     the aggregate's business fields
 *   time        epoch-ms times (UInt64) and their second-precision DateTime twins
 *   provenance  where the row came from (event id, Kafka position): never read back as state
 */
export type ColumnRole = 'key' | 'version' | 'isDeleted' | 'content' | 'time' | 'provenance';

export interface ProjectionColumn<Row> {
  name: string;
  type: ColumnType;
  role: ColumnRole;
  /**
   * The field the column holds, by the event contract's name (data.*): the name in the canonical line
   * and in the read view. For a column of a list (parallel arrays), the item's field.
   */
  field?: string;
  /** For parallel array columns: the list field they make up together ('items'). */
  list?: string;
  /** Compared by a CONTENT reconciliation (key, version and isDeleted are always compared). */
  compared?: boolean;
  /**
   * The column's empty value (0 for a number or an epoch-ms time, '' for a string) stands for "unknown":
   * the read view returns null for it. For fields a newer event schema version added, which a row
   * projected from an older event (upcast with nulls) cannot know; 18.16 holds no Nullable here.
   */
  emptyIsUnknown?: boolean;
  /** The row's value: a number, string or boolean (0/1 for UInt8), epoch ms for a DateTime, canonical decimal text. */
  value(row: Row): unknown;
}

export interface ProjectionTable<Row> {
  /** The (logical) table name in ClickHouse. */
  name: string;
  /** Every column, in table order (the migration's order). */
  columns: readonly ProjectionColumn<Row>[];
  /** SQL of a row's logical-count segment: what a reconciliation counts per (fitness: project, orders: UTC day). */
  segment: string;
}

export const uint = (bits: 8 | 16 | 32 | 64): ColumnType => ({ kind: 'uint', bits });
export const string: ColumnType = { kind: 'string' };
export const dateTime: ColumnType = { kind: 'dateTime' };
export const decimal = (scale: number): ColumnType => ({ kind: 'decimal', scale });
export const array = (of: ColumnType): ColumnType => ({ kind: 'array', of });

/**
 * Who wrote the version (event schema version 2: data.changedBy), the same column in every projection.
 * '' is unknown (a row from a version-1 event). Not compared: a reconciliation digest compares the
 * business content every schema version carries, so canonical digests ignore the representation version.
 */
export const changedByColumn = <Row extends { changedBy: string }>(): ProjectionColumn<Row> => ({
  name: 'changed_by',
  type: string,
  role: 'content',
  field: 'changedBy',
  compared: false,
  emptyIsUnknown: true,
  value: (r) => r.changedBy,
});

/** The ClickHouse type text ("Decimal(18, 3)", "Array(UInt32)"), as DESCRIBE TABLE prints it. */
export function clickHouseType(t: ColumnType): string {
  switch (t.kind) {
    case 'uint':
      return `UInt${t.bits}`;
    case 'string':
      return 'String';
    case 'dateTime':
      return "DateTime('UTC')";
    case 'decimal':
      return `Decimal(18, ${t.scale})`;
    case 'array':
      return `Array(${clickHouseType(t.of)})`;
  }
}
