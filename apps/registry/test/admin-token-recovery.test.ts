import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createTestDatabase,
  databaseEnv,
  eventually,
  launchRegistry,
  migratedDataDir,
  postGraphQL,
  spawnRegistry,
  type LaunchedRegistry,
} from "@stream-registry/testkit";

// Registry processes started one after the other on one data directory: minutes on a busy machine.
vi.setConfig({ testTimeout: 240_000 });

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const TOKEN = /\b(srt_[A-Za-z0-9_-]{43})\b/;
const ENV_TOKEN = "srt_admin-token-recovery-test-value-00000001";

// A user's first start (no REGISTRY_ADMIN_TOKEN), in production, on a database no registry has run on.
describe("the first admin token, when the first start fails or the token is lost", () => {
  let dataDir: string;
  const started: Pick<LaunchedRegistry, "kill" | "exited" | "logs">[] = [];
  let blocker: Server | undefined;

  const env = () => ({ NODE_ENV: "production", REGISTRY_ADMIN_TOKEN: "", REGISTRY_DATA_DIR: dataDir });
  async function start(extra: Record<string, string> = {}) {
    const registry = await spawnRegistry({ ...env(), ...extra });
    started.push(registry);
    return registry;
  }
  async function stop(registry: Pick<LaunchedRegistry, "kill" | "exited">) {
    registry.kill("SIGTERM");
    expect(await registry.exited).toBe(0);
  }
  /** A first `npm start` on a port another process holds: it fails, saying so in one plain line. */
  async function failFirstStart() {
    dataDir = await migratedDataDir("admin-recovery");
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const first = launchRegistry({ ...env(), PORT: String(port) }, "npm start");
    started.push(first);
    expect(await first.started).toBeUndefined();
    expect(await first.exited).not.toBe(0);
    expect(first.logs).toContain(
      `stream-registry: 127.0.0.1:${port} is in use by another process: stop it, or set PORT to a free port`,
    );
    expect(first.logs.filter((line) => /^\s+at /.test(line))).toEqual([]);
    expect(first.logs.join("\n")).not.toMatch(TOKEN);
    await new Promise((resolve) => blocker!.close(resolve));
  }

  afterEach(async (context) => {
    for (const p of started.splice(0)) {
      if (context.task.result?.state === "fail") console.error(p.logs.slice(-40).join("\n")); // eslint-disable-line no-console
      p.kill("SIGKILL");
      await p.exited;
    }
    blocker?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints a usable token at the next start after a first start failed on a taken port", async () => {
    await failFirstStart();
    const next = await start();
    const token = TOKEN.exec(next.logs.join("\n"))?.[1];
    expect(token).toBeDefined();
    const answer = await postGraphQL(next.url, "{ apiTokens { name } }", {}, bearer(token!));
    expect(answer.data).toEqual({ apiTokens: [{ name: "admin" }] });
  });

  it("takes REGISTRY_ADMIN_TOKEN at the next start after a first start failed on a taken port", async () => {
    await failFirstStart();
    const next = await start({ REGISTRY_ADMIN_TOKEN: ENV_TOKEN });
    expect(next.logs.join("\n")).not.toMatch(TOKEN);
    const answer = await postGraphQL(next.url, "{ apiTokens { name } }", {}, bearer(ENV_TOKEN));
    expect(answer.data).toEqual({ apiTokens: [{ name: "admin" }] });
  });

  it("gives a new working token with npm run admin:reset-token, and refuses the old one", async () => {
    dataDir = await migratedDataDir("admin-recovery");
    const first = await start();
    const lost = TOKEN.exec(first.logs.join("\n"))![1]!;
    // PGlite's directory is the running registry's alone: the command says so and changes nothing.
    const refused = await resetToken();
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/admin:reset-token: data directory .* is in use by process \d+/);
    await stop(first);

    const reset = await resetToken();
    expect(reset.code).toBe(0);
    const value = reset.stdout.trim();
    expect(value).toMatch(/^srt_[A-Za-z0-9_-]{43}$/);

    const again = await start();
    expect(again.logs.join("\n")).not.toMatch(TOKEN);
    expect((await postGraphQL(again.url, "{ __typename }", {}, bearer(lost))).status).toBe(401);
    const answer = await postGraphQL<{ changes: { nodes: Record<string, string>[] } }>(
      again.url,
      "{ apiTokens { name } changes(first: 100) { nodes { entityType entityKey action actor } } }",
      {},
      bearer(value),
    );
    expect(answer.errors).toBeUndefined();
    const tokenChanges = answer.data!.changes.nodes.filter((change) => change.entityType === "api_token");
    expect(tokenChanges).toEqual([
      { entityType: "api_token", entityKey: "admin", action: "revoked", actor: "registry:reset-admin-token" },
      { entityType: "api_token", entityKey: "admin", action: "created", actor: "registry:reset-admin-token" },
    ]);
  });

  it("resets it on PostgreSQL beside the running registry, which then refuses the old one", async () => {
    dataDir = await migratedDataDir("admin-recovery"); // unused: the registry is on PostgreSQL
    await using database = await createTestDatabase("postgres", "admin_recovery");
    const empty = await resetToken({ DATABASE_URL: database.url! });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("admin:reset-token: no registry database at postgresql://");

    const running = await start({ ...databaseEnv(database.url, undefined), REGISTRY_ADMIN_TOKEN: ENV_TOKEN });
    expect((await postGraphQL(running.url, "{ __typename }", {}, bearer(ENV_TOKEN))).status).toBe(200);
    const reset = await resetToken({ DATABASE_URL: database.url! });
    expect(reset.code).toBe(0);
    const value = reset.stdout.trim();
    const answer = await postGraphQL(running.url, "{ apiTokens { name } }", {}, bearer(value));
    expect(answer.data).toEqual({ apiTokens: [{ name: "admin" }] });
    // A token looked up is remembered for 5 s by the process that looked it up.
    await eventually(async () => {
      const old = await postGraphQL(running.url, "{ __typename }", {}, bearer(ENV_TOKEN));
      return old.status === 401 ? true : undefined;
    });
  });

  /** `npm run -s admin:reset-token` on the registry's machine, as the docs say. */
  function resetToken(
    database: Record<string, string> = { REGISTRY_DATA_DIR: dataDir },
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { REGISTRY_ADMIN_TOKEN: _unset, DATABASE_URL: _none, ...environment } = process.env;
    const child = spawn("npm", ["run", "--silent", "admin:reset-token"], {
      cwd: repoRoot,
      env: { ...environment, NODE_ENV: "production", ...database },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
  }
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
