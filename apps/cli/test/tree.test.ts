import { describe, expect, it } from "vitest";
import { eventually, TREE_TOKEN, type RegistryNode } from "@stream-registry/testkit";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";
import { useRegistryTree } from "./support/use-tree.ts";

// srctl against a tree of real registry processes, each with its own database, as an operator
// drives one: everything through the root, --namespace naming where it goes. The root's lists come
// from its discovery index (--consistency index, the default), which follows each child's change
// feed a moment behind: a test about what the root knows waits for it (eventually), one about the
// live fan-out asks with --consistency live.
const LEAF = "/aws/us-reg1-xyz";
const ENV = { RECONCILER_RESYNC_MS: "500", REGISTRY_HEALTH_INTERVAL_MS: "500" };

describe("srctl across a tree of registries (/, /aws, /aws/us-reg1-xyz)", { timeout: 120_000 }, () => {
  const at = useRegistryTree(["/", "/aws", LEAF], ENV);
  const srctl = (node: RegistryNode, ...args: string[]) => runMain(["--registry", node.url, ...args]);

  it("SHOW NAMESPACES at the root lists /aws, UP once the root has probed it, with its index lag", async () => {
    const shown = await eventually(
      async () => {
        const run = await srctl(at("/"), "-e", "SHOW NAMESPACES;");
        const upAndIndexed = /^\| \/aws +\| \S+ +\| UP +\| \S+ +\| \d+\.\d s +\|$/m;
        // The leaf too: "not indexed yet" would widen the index lag column the header is matched by.
        const indexed = upAndIndexed.test(run.stdout) && !run.stdout.includes("not indexed yet");
        return run.code === ExitCode.OK && indexed ? run : undefined;
      },
      30_000,
      "the root to see /aws UP and indexed",
    );
    expect(shown.stdout).toMatch(/^\| namespace +\| url +\| health +\| checked +\| index lag \|$/m);
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
    const subtree = `| namespace        | stream     | bindings | default cluster |
|------------------+------------+----------+-----------------|
| /                | root_s     |        0 |                 |
| /aws             | aws_s      |        0 |                 |
| /aws/us-reg1-xyz | widgets_v0 |        1 | cluster001      |

| namespace        | cluster    | provider      | bindings |
|------------------+------------+---------------+----------|
| /aws/us-reg1-xyz | cluster001 | registry-only |        1 |
`;
    // The live fan-out has what the previous test made at once; the index once it has read it.
    const live = await srctl(root, "--consistency", "live", "-e", "SHOW STREAMS; SHOW CLUSTERS;");
    expect(live).toEqual({ code: ExitCode.OK, stdout: subtree, stderr: "" });
    const streams = await eventually(
      async () => {
        const run = await srctl(root, "-e", "SHOW STREAMS; SHOW CLUSTERS;");
        return run.stdout === subtree ? run : undefined;
      },
      30_000,
      "the root's index to list what was made below it",
    );
    expect(streams.code).toBe(ExitCode.OK);
    expect(streams.stderr).toBe("");
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
    const fromEnv = await runMain(["--registry", at("/").url, "-e", "SHOW STREAMS;"], {
      env: { SRCTL_NAMESPACE: "aws/" },
    });
    expect(fromEnv.code).toBe(ExitCode.BAD_INPUT);

    const unowned = await srctl(at("/"), "--namespace", "/gcp", "-e", 'CREATE STREAM "nowhere_s";');
    expect(unowned.code).toBe(ExitCode.NOT_FOUND);
    // Said once, with the namespaces that do exist below the registry asked.
    expect(unowned.stderr).toContain(
      "error: NOT_FOUND at input.namespace: no child registry owns namespace /gcp; the child registries of / own /aws\n",
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
    // Its items are the tree's again, under their old namespace: live at once, in the root's index
    // once /aws indexed the leaf again and the root read that from /aws.
    const describe = ["--namespace", LEAF, "-e", 'DESCRIBE BINDINGS "widgets_v0";'];
    const back = await srctl(at("/"), "--consistency", "live", ...describe);
    expect(back.code).toBe(ExitCode.OK);
    await eventually(
      async () => ((await srctl(at("/"), ...describe)).code === ExitCode.OK ? true : undefined),
      30_000,
      "the root's index to have the leaf's binding again",
    );
  });

  it("shows a leaf's new stream live at once, and from the root's index once the index has read it", async () => {
    const root = at("/");
    const made = await srctl(at(LEAF), "-e", 'CREATE STREAM "fresh_s";');
    expect(made.code).toBe(ExitCode.OK);
    const live = await srctl(root, "--consistency", "live", "-e", 'SHOW STREAMS LIKE "fresh%";');
    expect(live.stdout).toContain(`| ${LEAF} | fresh_s |`);
    const indexed = await eventually(
      async () => {
        const run = await srctl(root, "-e", 'SHOW STREAMS LIKE "fresh%";');
        return run.stdout.includes("fresh_s") ? run : undefined;
      },
      30_000,
      "the root's index to list fresh_s",
    );
    expect(indexed).toEqual({ code: ExitCode.OK, stdout: live.stdout, stderr: "" });
    // SRCTL_CONSISTENCY does what the option does; a value that is neither is refused before anything is sent.
    const fromEnv = await runMain(["--registry", root.url, "-e", 'SHOW STREAMS LIKE "fresh%";'], {
      env: { SRCTL_CONSISTENCY: "live" },
    });
    expect(fromEnv.stdout).toBe(live.stdout);
    const invalid = await srctl(root, "--consistency", "eventual", "-e", 'SHOW STREAMS LIKE "fresh%";');
    expect(invalid).toEqual({
      code: ExitCode.BAD_INPUT,
      stdout: "",
      stderr: 'error: --consistency must be index or live, got "eventual"\n',
    });
  });

  it("answers from the root's index while /aws is down, warning that the index is behind it, not partial", async () => {
    const [root, aws] = [at("/"), at("/aws")];
    await aws.stop();
    try {
      // Made at the leaf while the registry between it and the root is down: the root cannot know.
      expect((await srctl(at(LEAF), "-e", 'CREATE STREAM "while_aws_down";')).code).toBe(ExitCode.OK);
      const behind = await eventually(
        async () => {
          const run = await srctl(root, "-e", "SHOW STREAMS;");
          return /^warning: INDEX_LAG \(namespace \/aws\): .* \(last error: .+\); use --consistency live/m.test(
            run.stderr,
          )
            ? run
            : undefined;
        },
        30_000,
        "the root's index to report /aws unreachable",
      );
      expect(behind.code).toBe(ExitCode.OK);
      expect(behind.stdout).toBe(
        `| namespace        | stream     | bindings | default cluster |
|------------------+------------+----------+-----------------|
| /                | root_s     |        0 |                 |
| /aws             | aws_s      |        0 |                 |
| /aws/us-reg1-xyz | fresh_s    |        0 |                 |
| /aws/us-reg1-xyz | widgets_v0 |        1 | cluster001      |
`,
      );
      // One warning per namespace behind: /aws, and the leaf once what /aws last said of it is old.
      const warned = behind.stderr.trimEnd().split("\n");
      expect(
        warned.every((line) => /^warning: INDEX_LAG \(namespace \/aws(\/us-reg1-xyz)?\): /.test(line)),
      ).toBe(true);
      expect(new Set(warned.map((line) => line.split(")")[0])).size).toBe(warned.length);

      const json = await srctl(root, "--output", "json", "-e", "SHOW CLUSTERS;");
      expect(json.code).toBe(ExitCode.OK);
      expect(JSON.parse(json.stdout)).toMatchObject({
        ok: true,
        exitCode: ExitCode.OK,
        result: { rows: [{ namespace: LEAF, cluster: "cluster001" }] },
        warnings: expect.arrayContaining([
          expect.objectContaining({
            code: "INDEX_LAG",
            namespace: "/aws",
            lag: expect.objectContaining({ lastError: expect.any(String) }),
          }),
        ]),
      });
      // Live, /aws and what is below it are left out: a partial answer.
      const live = await srctl(root, "--consistency", "live", "-e", "SHOW STREAMS;");
      expect(live.code).toBe(ExitCode.PARTIAL);
      expect(live.stderr).toMatch(/^warning: CHILD_UNAVAILABLE \(namespace \/aws\): .+\n$/);
      const namespaces = await srctl(root, "-e", "SHOW NAMESPACES;");
      expect(namespaces.stdout).toMatch(/^\| \/aws +\| .* \| [\d.]+ s \(last error: .+\) +\|$/m);
    } finally {
      await aws.start();
    }
    // Back: the root's index reads on from where it was, and the live fan-out reaches /aws again.
    await eventually(
      async () => {
        const run = await srctl(root, "-e", 'SHOW STREAMS LIKE "while%";');
        return run.code === ExitCode.OK && run.stdout.includes("while_aws_down") && run.stderr === ""
          ? true
          : undefined;
      },
      60_000,
      "the root's index to catch up with /aws",
    );
    await eventually(
      async () =>
        (await srctl(root, "--consistency", "live", "-e", "SHOW STREAMS;")).code === ExitCode.OK
          ? true
          : undefined,
      60_000,
      "the root to reach /aws live again",
    );
  });

  it("prints what the others have and one warning naming a stopped leaf, exiting with the partial code (live)", async () => {
    await at(LEAF).stop();
    const partial = await srctl(at("/"), "--consistency", "live", "-e", "SHOW STREAMS;");
    expect(partial.code).toBe(ExitCode.PARTIAL);
    expect(partial.stdout).toBe(
      `| namespace | stream | bindings | default cluster |
|-----------+--------+----------+-----------------|
| /         | root_s |        0 |                 |
| /aws      | aws_s  |        0 |                 |
`,
    );
    expect(partial.stderr).toMatch(/^warning: CHILD_UNAVAILABLE \(namespace \/aws\/us-reg1-xyz\): .+\n$/);

    const json = await srctl(
      at("/"),
      "--output",
      "json",
      "--consistency",
      "live",
      "-e",
      'DESCRIBE BINDINGS "widgets_v0";',
    );
    expect(json.code).toBe(ExitCode.PARTIAL);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      exitCode: ExitCode.PARTIAL,
      result: { rows: [] },
      warnings: [{ code: "CHILD_UNAVAILABLE", namespace: LEAF }],
    });
  });

  it("SHOW NAMESPACES at the root shows every level: the leaf below /aws, DOWN once it stopped", async () => {
    const leafRow = (status: string) => new RegExp(`^\\| ${LEAF} +\\| ${at(LEAF).url} +\\| ${status}`, "m");
    const rootShows = (status: string) =>
      eventually(
        async () => {
          const run = await srctl(at("/"), "-e", "SHOW NAMESPACES;");
          return run.code === ExitCode.OK && leafRow(status).test(run.stdout) ? run : undefined;
        },
        60_000,
        `the root to show ${LEAF} ${status}`,
      );
    await at(LEAF).start();
    const up = await rootShows("UP");
    // Tree order: the root, /aws, then the registry below /aws.
    expect(up.stdout.split("\n").filter((line) => line.startsWith("| /"))).toEqual([
      expect.stringMatching(/^\| \/ /),
      expect.stringMatching(/^\| \/aws /),
      expect.stringMatching(/^\| \/aws\/us-reg1-xyz /),
    ]);
    await at(LEAF).stop();
    const down = await rootShows("DOWN: ");
    expect(down.stdout).toMatch(/^\| \/aws +\| \S+ +\| UP /m);
  });
});
