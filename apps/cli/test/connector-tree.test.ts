import { describe, expect, it } from "vitest";
import { eventually } from "@stream-registry/testkit";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";
import { useRegistryTree } from "./support/use-tree.ts";

// Sources and sinks of a child registry, driven through its parent as an operator does: mutations
// and look-ups routed by --namespace, lists from the parent's discovery index.
const ENV = { RECONCILER_RESYNC_MS: "500", REGISTRY_HEALTH_INTERVAL_MS: "500" };

describe("srctl's source and sink statements through a parent (/, /aws)", { timeout: 120_000 }, () => {
  const at = useRegistryTree(["/", "/aws"], ENV);
  const srctl = (...args: string[]) => runMain(["--registry", at("/").url, ...args]);

  it("creates, describes, pauses and lists a child's source and sink through the root", async () => {
    const made = await srctl(
      "--namespace",
      "/aws",
      "--wait",
      "-e",
      `DECLARE CLUSTER "aws_c" WITH PROVIDER "test"; CREATE STREAM "aws_w";
       CREATE BINDING "aws_w" TO CLUSTER "aws_c";
       SHOW SOURCE TYPES FOR CLUSTER "aws_c";
       CREATE STREAM SOURCE "aws_w" WITH TYPE "file" ON CLUSTER "aws_c";
       CREATE STREAM SINK "aws_w" WITH TYPE "file" ON CLUSTER "aws_c";
       PAUSE STREAM SINK "aws_w";
       DESCRIBE STREAM SINK "aws_w";`,
    );
    expect(made.stderr).not.toMatch(/error/);
    expect(made.code).toBe(ExitCode.OK);
    expect(made.stdout).toContain("| file        |\n| postgres    |\n");
    expect(made.stdout).toContain(
      "stream source aws_w: ONLINE\nstream sink aws_w: ONLINE\nstream sink aws_w: PAUSED\n",
    );
    expect(made.stdout).toContain(`|-------------+---------+------+--------|
| STREAM SINK | CLUSTER | TYPE | STATUS |
|-------------+---------+------+--------|
| aws_w       | aws_c   | file | PAUSED |
|-------------+---------+------+--------|`);

    // The root has none of its own: its list is the child's, from its index once it has read them.
    const listed = await eventually(
      async () => {
        const run = await srctl("-e", "SHOW STREAM SOURCES; SHOW STREAM SINKS;");
        return run.stdout.includes("| /aws      | aws_w         |") && run.stdout.includes("PAUSED")
          ? run
          : undefined;
      },
      30_000,
      "the root's index to list the child's source and sink",
    );
    expect(listed.code).toBe(ExitCode.OK);
    expect(listed.stdout).toBe(`| namespace | stream source | cluster | type | status |
|-----------+---------------+---------+------+--------|
| /aws      | aws_w         | aws_c   | file | ONLINE |

| namespace | stream sink | cluster | type | status |
|-----------+-------------+---------+------+--------|
| /aws      | aws_w       | aws_c   | file | PAUSED |
`);
    // Without --namespace the look-up is the root's own, which has no such source.
    const own = await srctl("-e", 'DESCRIBE STREAM SOURCE "aws_w";');
    expect(own.code).toBe(ExitCode.NOT_FOUND);
    expect(own.stderr).toContain('stream source "aws_w" does not exist');
    const deleted = await srctl("--namespace", "/aws", "--wait", "-e", 'DELETE STREAM SOURCE "aws_w";');
    expect(deleted.stdout).toBe("stream source aws_w: deleted\n");
  });
});
