import pg from "pg";

/**
 * Reads rows from the PostgreSQL database at `url`, behind the back of the registry using it (a
 * test that checks what it stored, or signs as it).
 */
export async function queryRows<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
