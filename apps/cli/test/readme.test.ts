import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnRegistry, TEST_AUTHORIZATION } from "@stream-registry/testkit";
import { usePrivateKafkaClusters, useRegistryProcess } from "@stream-registry/testkit/vitest";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";
import { runSrctl } from "./support/run-srctl.ts";

// What the README promises a new user, run as written so that it cannot rot.
const repo = fileURLToPath(new URL("../../../", import.meta.url));
const readme = readFileSync(`${repo}README.md`, "utf8");
const walkthroughFile = `${repo}docs/examples/walkthrough.sql`;
const walkthrough = readFileSync(walkthroughFile, "utf8");

/** The README's ```json block that follows `marker`. */
function jsonBlockAfter(marker: string): unknown {
  const at = readme.indexOf(marker);
  expect(at, `README has "${marker}"`).toBeGreaterThanOrEqual(0);
  const block = /```json\n([\s\S]*?)```/.exec(readme.slice(at));
  return JSON.parse(block![1]!);
}

/** The statements of the README's Kafka example: what `npx srctl -e '...'` is given. */
function kafkaStatements(): string {
  const kafka = readme.slice(readme.indexOf("## Kafka"));
  const inline = /npx srctl -e '([\s\S]*?)' --wait/.exec(kafka);
  expect(inline, "README's Kafka section runs srctl -e '...' --wait").not.toBeNull();
  return inline![1]!;
}

describe("the README, as a new user runs it", () => {
  const registry = useRegistryProcess("pglite");
  const kafka = usePrivateKafkaClusters(1);

  it("shows the walkthrough script as it is in docs/examples/walkthrough.sql", () => {
    expect(readme).toContain("```sql\n" + walkthrough + "```");
  });

  it("sends its complete GraphQL request body as it is, and it creates the stream", async () => {
    const body = jsonBlockAfter("as one complete request body");
    // With the header the README's curl sends.
    expect(readme).toContain(`-H "Authorization: Bearer $SRCTL_TOKEN"`);
    const response = await fetch(registry().url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: TEST_AUTHORIZATION },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as {
      errors?: unknown;
      data: { createStream: { stream: { name: string }; userErrors: unknown[] } };
    };
    expect(answer.errors).toBeUndefined();
    expect(answer.data.createStream).toEqual({
      stream: { name: "widgets_v0", generation: 1 },
      userErrors: [],
    });
    // The walkthrough below creates it again, after the README's way to clear it.
    const cleanup = /`npx srctl -e '(DELETE STREAM "widgets_v0" CASCADE;)' --wait`/.exec(readme);
    expect(cleanup, "README says how to run the walkthrough again").not.toBeNull();
    const cleared = await runMain(["--registry", registry().url, "-e", cleanup![1]!, "--wait"]);
    expect(cleared.stderr).toBe("");
    expect(cleared.stdout).toBe("stream widgets_v0: deleted\n");
  });

  it("runs docs/examples/walkthrough.sql with srctl apply -f --wait: per-map update included", async () => {
    const applied = await runSrctl(["--registry", registry().url, "apply", "-f", walkthroughFile, "--wait"], {
      cwd: tmpdir(),
    });
    expect(applied.stderr).not.toMatch(/error/i);
    expect(applied.code).toBe(ExitCode.OK);
    expect(applied.stdout).toContain(`| stream     | cluster    | default |
|------------+------------+---------|
| widgets_v0 | cluster001 | yes     |
| widgets_v0 | cluster002 | no      |`);
    expect(applied.stdout).toContain("stream widgets_v0: updated (generation 2, 2 bindings realized)");
    // The UPDATE named only "acme.kafka": "apache.kafka" stays, "acme.kafka" is what was given.
    expect(applied.stdout).toMatch(/\| stream +\| apache\.kafka +\| partitions +\| 10 +\|/);
    expect(applied.stdout).toMatch(/\| stream +\| acme\.kafka +\| owner +\| alice@acme\.com +\|/);
  });

  it("runs the Kafka section on the registry that just ran the walkthrough", async () => {
    const statements = kafkaStatements().replace("127.0.0.1:19092", kafka.at(0).bootstrapServers);
    const run = await runMain(["--registry", registry().url, "-e", statements, "--wait"]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toContain("cluster kafka001 (kafka): created");
    expect(run.stdout).toContain("binding orders_v0 on kafka001: ONLINE");
  });

  it("names a clusters file the registry accepts for the seed's bare DECLARE CLUSTER", async () => {
    const file = /REGISTRY_CLUSTERS_FILE=(\S+)/.exec(readme)![1]!;
    expect(JSON.parse(readFileSync(`${repo}${file}`, "utf8"))).toMatchObject({
      cluster001: {
        provider: "kafka",
        config: { "apache.kafka": { "bootstrap.servers": "127.0.0.1:19092" } },
      },
    });
    // Started as the README says (from the repository root); a file it refuses stops it.
    const dataDir = await mkdtemp(path.join(tmpdir(), "sr-readme-"));
    const started = await spawnRegistry({ REGISTRY_CLUSTERS_FILE: file, REGISTRY_DATA_DIR: dataDir });
    try {
      expect(started.entries().find((entry) => entry.msg === "cluster presets loaded")).toMatchObject({
        clusters: { cluster001: "kafka", cluster002: "kafka" },
      });
    } finally {
      started.kill("SIGTERM");
      await started.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000); // a registry of its own to start and stop

  it("git-ignores the data directories it suggests, secret-keys file included", () => {
    const dirs = [...readme.matchAll(/REGISTRY_DATA_DIR=(\S+)/g)].map((m) => m[1]!);
    expect(dirs).toContain(".data-kafka");
    for (const dir of [".data", ...dirs]) {
      const ignored = spawnSync("git", ["check-ignore", "-q", `${dir}/secret-keys`], { cwd: repo });
      expect(ignored.status, `${dir} is git-ignored`).toBe(0);
    }
  });

  it("tells in srctl's help how WITH CONFIG updates maps and what DECLARE CLUSTER keeps", async () => {
    const help = await runSrctl(["--help"]);
    expect(help.stdout).toContain("each map given replaces that map, maps not named stay");
    expect(help.stdout).toContain("what it leaves out keeps the cluster's");
  });
});
