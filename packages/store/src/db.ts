declare const handle: unique symbol;

/**
 * The database client (`Database.prisma`): what code outside store hands to store functions that
 * open their own transaction. It is opaque by type: nothing outside store can call Prisma through
 * it, not even after destructuring it from the `Database`; only store opens it (open-db.ts).
 */
export interface DbClient {
  readonly [handle]: "client";
}

/** The transaction a write runs in (`writeTransaction` hands it out): opaque outside store likewise. */
export interface Tx {
  readonly [handle]: "transaction";
}

/** What a store reads or writes through: the client, or the transaction a write runs in. */
export type Db = DbClient | Tx;
