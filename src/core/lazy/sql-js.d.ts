// The part of sql.js (MIT, https://sql.js.org) the OpenCode reader uses; the package ships no types.
declare module "sql.js/dist/sql-wasm-inline.js" {
  export type SqlValue = number | string | Uint8Array | null;
  export interface QueryExecResult {
    columns: string[];
    values: SqlValue[][];
  }
  export interface Statement {
    bind(values?: SqlValue[]): boolean;
    step(): boolean;
    get(): SqlValue[];
    getColumnNames(): string[];
    free(): boolean;
  }
  export interface Database {
    exec(sql: string, params?: SqlValue[]): QueryExecResult[];
    prepare(sql: string, params?: SqlValue[]): Statement;
    /** The database as a file's bytes. */
    export(): Uint8Array;
    close(): void;
  }
  export interface SqlJsStatic {
    Database: new (data?: Uint8Array) => Database;
  }
  export default function initSqlJs(config?: Record<string, unknown>): Promise<SqlJsStatic>;
}
