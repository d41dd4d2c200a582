import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.ts";
import { fillFromTemplate } from "./pglite-template.ts";
import type { DbClient } from "./db.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { clientHandle, openClient } from "./open-db.ts";

/** Plain SQL on one session: what migrations and job leasing need beyond Prisma's query builder. */
export interface SqlSession {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
}

export interface Database {
  readonly kind: "pglite" | "postgres";
  /** Where the data lives, with any password removed: for logs and /readyz. */
  readonly location: string;
  /** The client store functions take: an opaque handle outside store (db.ts). */
  readonly prisma: DbClient;
  /** Runs `fn` on one dedicated session (a pooled connection, or PGlite's only one). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Calls `listener` with every SQL statement Prisma sends; returns an unsubscribe function. */
  onQuery(listener: (sql: string) => void): () => void;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgresql:// URL. Without it the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite's data directory; omitted means in memory (tests). */
  dataDir?: string | undefined;
  /** Connection pool size for PostgreSQL. */
  poolSize?: number | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openPGlite(options.dataDir);
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const { prisma, onQuery } = createClient(new PrismaPg(pool));
  return {
    onQuery,
    kind: "postgres",
    location: redactUrl(url),
    prisma,
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async (sql, params) => (await client.query(sql, params)).rows,
          exec: async (script) => void (await client.query(script)),
        });
      } finally {
        client.release();
      }
    },
    async close() {
      await openClient(prisma).$disconnect();
      await pool.end();
    },
  };
}

async function openPGlite(dataDir: string | undefined): Promise<Database> {
  let unlock = async () => {};
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
    await fillFromTemplate(dataDir).catch(async (error: unknown) => {
      await unlock();
      throw error;
    });
  }
  const pglite = await PGlite.create(dataDir ? { dataDir } : {}).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  const { prisma, onQuery } = createClient(new PrismaPGlite(pglite));
  const session: SqlSession = {
    query: async (sql, params) => (await pglite.query(sql, params)).rows as never,
    exec: async (script) => void (await pglite.exec(script)),
  };
  return {
    kind: "pglite",
    location: dataDir ?? "memory",
    onQuery,
    prisma,
    withSession: (fn) => fn(session),
    async close() {
      await openClient(prisma).$disconnect();
      await pglite.close();
      await unlock();
    },
  };
}

function createClient(adapter: PrismaPg | PrismaPGlite) {
  const prisma = new PrismaClient({ adapter, log: [{ level: "query", emit: "event" }] });
  const listeners = new Set<(sql: string) => void>();
  prisma.$on("query", (event) => {
    for (const listener of listeners) listener(event.query);
  });
  const onQuery = (listener: (sql: string) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return { prisma: clientHandle(prisma), onQuery };
}

/** Whether the database answers at all (readiness): rejects with the database's error if not. */
export async function pingDatabase(db: DbClient): Promise<void> {
  await openClient(db).$queryRaw`SELECT 1`;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgresql://(unparseable url)";
  }
}
