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

/**
 * Every row of every table of the PostgreSQL database at `url`, one JSON text a row: what a copy
 * of it (a backup, a stolen disk) gives whoever holds it.
 */
export async function everyRow(url: string): Promise<string> {
  const tables = await queryRows<{ name: string }>(
    url,
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`,
  );
  const rows = await Promise.all(
    tables.map(({ name }) =>
      queryRows<{ row: string }>(url, `SELECT row_to_json(t)::text AS row FROM "${name}" t`),
    ),
  );
  return rows
    .flat()
    .map((r) => r.row)
    .join("\n");
}
