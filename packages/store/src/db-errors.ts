import { Prisma } from "./generated/prisma/client.ts";

/**
 * True when a write failed on a unique constraint: Prisma's P2002 for its own queries, on both
 * adapters; for raw SQL, the adapter's classification (SQLSTATE 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const adapter = adapterCause(error);
  return (
    error.code === "P2002" ||
    adapter?.kind === "UniqueConstraintViolation" ||
    adapter?.originalCode === "23505"
  );
}

/**
 * True when the database gave up a transaction to let another go on: a deadlock (40P01), or a
 * serialization failure (40001, which Prisma reports as P2034). Running it again may succeed.
 */
export function isWriteConflict(error: unknown): boolean {
  return someInChain(error, (e) => {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2034") return true;
    const adapter = adapterCause(e);
    if (adapter?.kind === "TransactionWriteConflict") return true;
    const code = adapter?.originalCode ?? e.code;
    return code === "40P01" || code === "40001";
  });
}

/**
 * The database cannot answer for what it holds, though it answers: it is being migrated again after
 * it was emptied, so a row not found there (an API token) may only not be back yet.
 */
export class DatabaseRebuildingError extends Error {
  constructor() {
    super("the database is being migrated again after it was emptied");
    this.name = "DatabaseRebuildingError";
  }
}

/**
 * True when the database cannot serve the registry at all: the server is unreachable or refuses
 * us (stopped, restarting, too many connections, authentication), the database does not exist
 * (dropped), a connection died under a query, the database lacks the registry's tables
 * (recreated empty: `isSchemaMissing`), or they are being made again (`DatabaseRebuildingError`).
 * Retrying later may work; nothing about the request is
 * wrong. Errors arrive in three shapes, all handled: Prisma errors whose `meta.driverAdapterError`
 * carries the adapter's classification (`kind`, `originalCode`), node-postgres errors with a
 * SQLSTATE or socket code (`withSession`), and node-postgres's own connection errors, which have
 * no code at all.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someInChain(error, (e) => isUnavailableHere(e) || isSchemaMissingHere(e));
}

/**
 * True when the database answers but the registry's tables are not there: it was dropped and
 * created again empty, or never migrated. Applying the migrations (`migrate`) repairs it.
 */
export function isSchemaMissing(error: unknown): boolean {
  return someInChain(error, isSchemaMissingHere);
}

// Prisma's codes for connection-level failures (https://www.prisma.io/docs/orm/reference/error-reference):
// authentication, unreachable, timed out, database missing, operation timed out, access denied,
// TLS, server closed the connection, pool timeout, too many connections.
const prismaCodes = new Set([
  "P1000",
  "P1001",
  "P1002",
  "P1003",
  "P1008",
  "P1010",
  "P1011",
  "P1017",
  "P2024",
  "P2037",
]);

// The driver adapters' classification (DriverAdapterError.cause.kind) of the same failures.
const adapterKinds = new Set([
  "AuthenticationFailed",
  "DatabaseAccessDenied",
  "DatabaseDoesNotExist",
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TlsConnectionError",
  "TooManyConnections",
]);

// Socket failures as Node reports them (pg's connect and an established socket alike).
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);

// node-postgres's errors for a connection that broke, which carry no code: a query on a client
// whose socket was closed (e.g. by pg_terminate_backend between two statements of a transaction),
// and a connect that timed out.
const connectionLossMessages =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout expired|timeout exceeded when trying to connect)/;

/**
 * SQLSTATEs: connection exceptions (class 08), the server out of resources (53: too many
 * connections, disk full, out of memory), shutting down or starting (57P01-03), its storage failing
 * (58: e.g. PGlite's data directory deleted underneath it), the database missing (3D000), and
 * authentication or authorization failing (28).
 */
function isUnavailableSqlState(code: string): boolean {
  return /^(08|53|58|28)/.test(code) || ["57P01", "57P02", "57P03", "3D000"].includes(code);
}

function isUnavailableHere(e: ErrorLike): boolean {
  if (e instanceof Prisma.PrismaClientInitializationError || e instanceof DatabaseRebuildingError)
    return true;
  if (e instanceof Prisma.PrismaClientKnownRequestError && prismaCodes.has(e.code)) return true;
  const adapter = adapterCause(e);
  if (adapter) {
    if (typeof adapter.kind === "string" && adapterKinds.has(adapter.kind)) return true;
    if (typeof adapter.originalCode === "string" && isUnavailableSqlState(adapter.originalCode)) return true;
  }
  if (typeof e.code === "string" && (socketCodes.has(e.code) || isUnavailableSqlState(e.code))) return true;
  return typeof e.message === "string" && connectionLossMessages.test(e.message);
}

function isSchemaMissingHere(e: ErrorLike): boolean {
  // P2021: "the table does not exist in the current database" (Prisma's query builder).
  if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2021") return true;
  const adapter = adapterCause(e);
  if (adapter && (adapter.kind === "TableDoesNotExist" || adapter.originalCode === "42P01")) return true;
  // undefined_table from node-postgres directly, with its severity (so not some other "code").
  return e.code === "42P01" && typeof e.severity === "string";
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  cause?: unknown;
  name?: unknown;
  meta?: unknown;
}

interface AdapterCause {
  kind?: unknown;
  originalCode?: unknown;
}

/** The driver adapter's description of the failure: in a Prisma error's meta, or a DriverAdapterError's cause. */
function adapterCause(e: ErrorLike): AdapterCause | undefined {
  const fromMeta = (e.meta as { driverAdapterError?: { cause?: unknown } } | undefined)?.driverAdapterError
    ?.cause;
  const cause = fromMeta ?? (e.name === "DriverAdapterError" ? e.cause : undefined);
  return typeof cause === "object" && cause !== null ? (cause as AdapterCause) : undefined;
}

function someInChain(error: unknown, test: (e: ErrorLike) => boolean): boolean {
  const seen = new Set<unknown>();
  for (let e = error; typeof e === "object" && e !== null && !seen.has(e); e = (e as ErrorLike).cause) {
    seen.add(e);
    if (test(e as ErrorLike)) return true;
  }
  return false;
}
