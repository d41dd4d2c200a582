import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { startLogicalPostgres } from "../src/index.ts";
import { running } from "./support/processes.ts";

describe("logical-replication PostgreSQL", () => {
  it("runs with wal_level=logical on a port of its own, trusts 127.0.0.1, and is removed on dispose", async () => {
    let dir: string;
    {
      await using postgres = await startLogicalPostgres();
      dir = postgres.dir;
      expect(postgres.port).not.toBe(5432);
      const settings = await postgres.withClient("postgres", async (client) => {
        const { rows } = await client.query<{ name: string; setting: string }>(
          "SELECT name, setting FROM pg_settings WHERE name IN ('wal_level', 'listen_addresses') ORDER BY name",
        );
        return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
      });
      expect(settings).toEqual({ listen_addresses: "127.0.0.1", wal_level: "logical" });
      // A replication slot with pgoutput, as Debezium makes one.
      await postgres.withClient("postgres", (client) =>
        client.query("SELECT pg_create_logical_replication_slot('probe', 'pgoutput')"),
      );
    }
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it("is stopped by its watchdog when its owner dies", async () => {
    const owner = spawn("sleep", ["600"], { stdio: "ignore" });
    try {
      if (owner.pid === undefined) throw new Error("could not spawn sleep");
      await using postgres = await startLogicalPostgres({ ownerPids: [process.pid, owner.pid] });
      // The postmaster's pid is the first line of its postmaster.pid.
      const pid = Number(readFileSync(join(postgres.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
      expect(running(pid)).toBe(true);
      owner.kill("SIGKILL");
      // The postmaster and its watchdog both go.
      await vi.waitFor(() => expect([running(pid), postgres.isRunning()]).toEqual([false, false]), {
        timeout: 30_000,
        interval: 200,
      });
    } finally {
      owner.kill("SIGKILL");
    }
  }, 60_000);
});
