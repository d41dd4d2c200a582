import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventually, startRegistryTree, TREE_TOKEN, type RegistryNode } from "@stream-registry/testkit";
import { ExitCode } from "../src/index.ts";
import { runSrctl } from "./support/run-srctl.ts";

// srctl against a tree of real registry processes, each with its own database, as an operator
// drives one: everything through the root, --namespace naming where it goes.
const LEAF = "/aws/us-reg1-xyz";
const ENV = { RECONCILER_RESYNC_MS: "500", REGISTRY_HEALTH_INTERVAL_MS: "500" };

describe("srctl across a tree of registries (/, /aws, /aws/us-reg1-xyz)", { timeout: 120_000 }, () => {
  let tree: Map<string, RegistryNode>;
  const at = (path: string) => tree.get(path)!;
  const srctl = (node: RegistryNode, ...args: string[]) => runSrctl(["--registry", node.url, ...args]);

  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws", LEAF], { env: ENV });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
  });
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      for (const node of tree?.values() ?? []) console.error(`--- ${node.path}\n${node.logs().join("\n")}`);
    });
  });

  it("SHOW NAMESPACES at the root lists /aws, UP once the root has probed it", async () => {
    const shown = await eventually(
      async () => {
        const run = await srctl(at("/"), "-e", "SHOW NAMESPACES;");
        return run.code === ExitCode.OK && /^\| \/aws +\| \S+ +\| UP +\|/m.test(run.stdout) ? run : undefined;
      },
      30_000,
      "the root to see /aws UP",
    );
    expect(shown.stdout).toContain("parent: none (this registry is the root of its tree)");
    expect(shown.stdout).toMatch(new RegExp(`^\\| / +\\| ${at("/").url} +\\| \\(this registry\\) +\\|`, "m"));
    expect(shown.stdout).toContain(at("/aws").url);
  });

  it("creates a cluster, a stream and a binding at the leaf through the root with --namespace", async () => {
    const made = await srctl(
      at("/"),
      "--namespace",
      LEAF,
      "--wait",
      "-e",
      `DECLARE CLUSTER "cluster001";
       CREATE STREAM "widgets_v0";
       CREATE BINDING "widgets_v0" TO CLUSTER "cluster001";
       DESCRIBE STREAM "widgets_v0";`,
    );
    expect(made.stderr).not.toMatch(/error/);
    expect(made.code).toBe(ExitCode.OK);
    expect(made.stdout).toBe(
      [
        "cluster cluster001 (registry-only): created",
        "stream widgets_v0: created",
        "binding widgets_v0 on cluster001: ONLINE",
        "",
        "| config | map | key | value |",
        "|--------+-----+-----+-------|",
        "",
      ].join("\n"),
    );
    // The leaf has them as its own: it prints them as a registry without children always has.
    const atLeaf = await srctl(at(LEAF), "-e", "SHOW STREAMS;");
    expect(atLeaf.stdout).toBe(
      "| stream     | bindings | default cluster |\n|------------+----------+-----------------|\n| widgets_v0 |        1 | cluster001      |\n",
    );
    // The root has none of its own.
    const json = await srctl(
      at("/"),
      "--output",
      "json",
      "--namespace",
      "/",
      "-e",
      'CREATE STREAM "root_s";',
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      result: { object: { kind: "stream", namespace: "/", name: "root_s" } },
    });
    const aws = await srctl(at("/"), "--namespace", "/aws", "-e", 'CREATE STREAM "aws_s";');
    expect(aws.code).toBe(ExitCode.OK);
  });

  it("lists the root's subtree with a namespace column, and --namespace keeps one namespace and below", async () => {
    const root = at("/");
    const streams = await srctl(root, "-e", "SHOW STREAMS; SHOW CLUSTERS;");
    expect(streams.code).toBe(ExitCode.OK);
    expect(streams.stdout).toBe(
      `| namespace        | stream     | bindings | default cluster |
|------------------+------------+----------+-----------------|
| /                | root_s     |        0 |                 |
| /aws             | aws_s      |        0 |                 |
| /aws/us-reg1-xyz | widgets_v0 |        1 | cluster001      |

| namespace        | cluster    | provider      | bindings |
|------------------+------------+---------------+----------|
| /aws/us-reg1-xyz | cluster001 | registry-only |        1 |
`,
    );
    const below = await srctl(root, "--namespace", "/aws", "-e", 'SHOW STREAMS LIKE "%_%";');
    expect(below.stdout).toBe(
      `| namespace        | stream     | bindings | default cluster |
|------------------+------------+----------+-----------------|
| /aws             | aws_s      |        0 |                 |
| /aws/us-reg1-xyz | widgets_v0 |        1 | cluster001      |
`,
    );
    const bindings = await srctl(root, "-e", 'DESCRIBE BINDINGS "widgets_v0";');
    expect(bindings.stdout).toBe(
      `| namespace        | stream     | cluster    | default |
|------------------+------------+------------+---------|
| /aws/us-reg1-xyz | widgets_v0 | cluster001 | yes     |
`,
    );
    const json = await srctl(root, "--output", "json", "--namespace", LEAF, "-e", "SHOW STREAMS;");
    expect(JSON.parse(json.stdout)).toMatchObject({
      result: {
        columns: ["namespace", "stream", "bindings", "defaultCluster"],
        rows: [{ namespace: LEAF, stream: "widgets_v0", bindings: 1, defaultCluster: "cluster001" }],
      },
      warnings: [],
    });
    const missing = await srctl(root, "--namespace", "/aws", "-e", 'DESCRIBE BINDINGS "root_s";');
    expect(missing.code).toBe(ExitCode.NOT_FOUND);
    expect(missing.stderr).toContain('stream "root_s" does not exist in namespace /aws');
  });

  it("refuses a namespace that is not absolute as bad input, and reports the registry's NOT_FOUND for one nobody owns", async () => {
    const relative = await srctl(at("/"), "--namespace", "aws", "-e", 'CREATE STREAM "nowhere_s";');
    expect(relative.code).toBe(ExitCode.BAD_INPUT);
    expect(relative.stderr).toBe(
      'error: --namespace: namespace "aws" is not valid: must start with "/" (an absolute path, e.g. /aws/us-reg1-xyz)\n',
    );
    const fromEnv = await runSrctl(["--registry", at("/").url, "-e", "SHOW STREAMS;"], {
      env: { SRCTL_NAMESPACE: "aws/" },
    });
    expect(fromEnv.code).toBe(ExitCode.BAD_INPUT);

    const unowned = await srctl(at("/"), "--namespace", "/gcp", "-e", 'CREATE STREAM "nowhere_s";');
    expect(unowned.code).toBe(ExitCode.NOT_FOUND);
    expect(unowned.stderr).toContain(
      "error: NOT_FOUND at input.namespace: no child registry owns namespace /gcp",
    );
    const lookup = await srctl(at("/"), "--namespace", "/gcp", "-e", 'DESCRIBE STREAM "nowhere_s";');
    expect(lookup.code).toBe(ExitCode.NOT_FOUND);
    expect(lookup.stderr).toContain("NOT_FOUND");
  });

  it("drops the leaf's parent and declares it again through srctl, and SHOW NAMESPACE follows", async () => {
    const [aws, leaf] = [at("/aws"), at(LEAF)];
    const dropped = await srctl(leaf, "-e", "DROP PARENT REGISTRY; SHOW NAMESPACE;");
    expect(dropped.code).toBe(ExitCode.OK);
    expect(dropped.stdout).toBe(
      `parent registry ${aws.url}: dropped (namespace /us-reg1-xyz)\n"/us-reg1-xyz"\n`,
    );

    const declared = await srctl(
      leaf,
      "-e",
      `DECLARE PARENT REGISTRY "${aws.url}" WITH TOKEN "${TREE_TOKEN}"; SHOW NAMESPACE;`,
    );
    expect(declared.code).toBe(ExitCode.OK);
    expect(declared.stdout).toBe(`parent registry ${aws.url}: registered (namespace ${LEAF})\n"${LEAF}"\n`);
    expect(declared.stdout + declared.stderr).not.toContain(TREE_TOKEN);
    const namespaces = await srctl(leaf, "-e", "SHOW NAMESPACES;");
    expect(namespaces.stdout).toContain(`parent: /aws at ${aws.url} (ONLINE)`);
    // Its items are the tree's again, under their old namespace.
    const back = await srctl(at("/"), "--namespace", LEAF, "-e", 'DESCRIBE BINDINGS "widgets_v0";');
    expect(back.code).toBe(ExitCode.OK);
  });

  it("prints what the others have and one warning naming a stopped leaf, exiting with the partial code", async () => {
    await at(LEAF).stop();
    const partial = await srctl(at("/"), "-e", "SHOW STREAMS;");
    expect(partial.code).toBe(ExitCode.PARTIAL);
    expect(partial.stdout).toBe(
      `| namespace | stream | bindings | default cluster |
|-----------+--------+----------+-----------------|
| /         | root_s |        0 |                 |
| /aws      | aws_s  |        0 |                 |
`,
    );
    expect(partial.stderr).toMatch(/^warning: CHILD_UNAVAILABLE \(namespace \/aws\/us-reg1-xyz\): .+\n$/);

    const json = await srctl(at("/"), "--output", "json", "-e", 'DESCRIBE BINDINGS "widgets_v0";');
    expect(json.code).toBe(ExitCode.PARTIAL);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      exitCode: ExitCode.PARTIAL,
      result: { rows: [] },
      warnings: [{ code: "CHILD_UNAVAILABLE", namespace: LEAF }],
    });
  });
});
