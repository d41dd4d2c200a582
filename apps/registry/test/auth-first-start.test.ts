import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchRegistry, postGraphQL, spawnRegistry, type RegistryProcess } from "@stream-registry/testkit";

async function stop(registry: RegistryProcess): Promise<void> {
  registry.kill("SIGTERM");
  await registry.exited;
}

// What `npm start` does for a new user: authentication on, the first admin token printed once on
// stdout (not in the JSON log), with how to use it.
describe("the first start", { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "sr-first-start-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints an admin token once, outside the JSON log, which then authenticates", async () => {
    const env = { REGISTRY_ADMIN_TOKEN: "", REGISTRY_DATA_DIR: dataDir };
    const first = await spawnRegistry(env);
    let token: string;
    try {
      const printed = first.logs.filter((line) => line.includes("srt_"));
      token = /\b(srt_[A-Za-z0-9_-]{43})\b/.exec(printed.join("\n"))![1]!;
      expect(
        printed.some((line) => line.includes(`SRCTL_TOKEN=${token} srctl --registry ${first.url}`)),
      ).toBe(true);
      expect(printed.some((line) => line.includes(`Authorization: Bearer ${token}`))).toBe(true);
      // Not in a log line: log collectors keep what they get.
      expect(first.entries().some((entry) => JSON.stringify(entry).includes(token))).toBe(false);
      expect(first.entries().find((e) => e.msg === "registry started")).toMatchObject({ auth: "on" });
      const answer = await postGraphQL(
        first.url,
        "{ apiTokens { name } }",
        {},
        { authorization: `Bearer ${token}` },
      );
      expect(answer.data).toEqual({ apiTokens: [{ name: "admin" }] });
      expect((await postGraphQL(first.url, "{ __typename }", {}, { authorization: "" })).status).toBe(401);
    } finally {
      await stop(first);
    }
    const again = await spawnRegistry(env);
    try {
      expect(again.logs.some((line) => line.includes("srt_"))).toBe(false);
      const answer = await postGraphQL(
        again.url,
        "{ apiTokens { name } }",
        {},
        { authorization: `Bearer ${token}` },
      );
      expect(answer.status).toBe(200);
    } finally {
      await stop(again);
    }
  });

  it("warns at every start with REGISTRY_AUTH=none, and refuses it in production", async () => {
    const none = await spawnRegistry({ REGISTRY_AUTH: "none", REGISTRY_DATA_DIR: dataDir });
    try {
      expect(
        none.entries().find((e) => e.level === 40 && String(e.msg).startsWith("REGISTRY_AUTH=none")),
      ).toBeDefined();
      expect((await postGraphQL(none.url, "{ __typename }", {}, { authorization: "" })).status).toBe(200);
    } finally {
      await stop(none);
    }
    const refused = launchRegistry({
      REGISTRY_AUTH: "none",
      NODE_ENV: "production",
      REGISTRY_DATA_DIR: dataDir,
    });
    expect(await refused.started).toBeUndefined();
    expect(await refused.exited).toBe(1);
    expect(refused.logs.join("\n")).toContain("REGISTRY_AUTH: none is refused when NODE_ENV=production");
  });
});
