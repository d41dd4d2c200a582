import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registryNode, type RegistryNode } from "@stream-registry/testkit";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";

// docs/federation.md's "Building the seed's tree", run as written against three registry processes:
// the root and /aws each started with an enrollment token of their own, as its diagram shows.
const doc = readFileSync(new URL("../../../docs/federation.md", import.meta.url), "utf8");
const TOKENS = { root: "root-enrollment-secret-0001", aws: "aws-enrollment-secret-0002" };

/** The doc's `npx srctl --registry <url> -e '<statements>'` commands, as [url, statements]. */
function docCommands(): [string, string][] {
  const section = doc.slice(
    doc.indexOf("## Building the seed's tree"),
    doc.indexOf("### What keeps the tree right"),
  );
  // '"'"' is how a shell puts a ' inside '...'.
  return [...section.matchAll(/^npx srctl --registry (\S+) -e '([\s\S]*?)'\n/gm)].map((m) => [
    m[1]!,
    m[2]!.replaceAll(`'"'"'`, "'"),
  ]);
}

describe("docs/federation.md's commands, against registry processes", { timeout: 120_000 }, () => {
  let nodes: RegistryNode[] = [];
  beforeAll(async () => {
    nodes = [
      await registryNode("/", "pglite", { REGISTRY_ENROLLMENT_TOKEN: TOKENS.root }),
      await registryNode("/aws", "pglite", { REGISTRY_ENROLLMENT_TOKEN: TOKENS.aws }),
      await registryNode("/aws/us-reg1-xyz", "pglite"),
    ];
    await Promise.all(nodes.map((node) => node.start()));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.dispose()));
  });

  it("builds /aws with the root's enrollment token and its leaf with the token /aws was started with", async () => {
    const [root, aws, leaf] = nodes as [RegistryNode, RegistryNode, RegistryNode];
    const commands = docCommands();
    expect(commands.map(([url]) => url)).toEqual([
      "http://aws:4000/graphql",
      "http://us-reg1-xyz:4000/graphql",
    ]);
    const concrete = (text: string) =>
      text
        .replaceAll("http://root:4000/graphql", root.url)
        .replaceAll("http://aws:4000/graphql", aws.url)
        .replaceAll("<the root's REGISTRY_ENROLLMENT_TOKEN>", TOKENS.root)
        .replaceAll("<the REGISTRY_ENROLLMENT_TOKEN of /aws>", TOKENS.aws);
    const [[, awsStatements], [, leafStatements]] = commands as [[string, string], [string, string]];

    // The root's token does not enroll a child of /aws: /aws has a token of its own.
    const wrong = await runMain([
      "--registry",
      leaf.url,
      "-e",
      concrete(leafStatements).replace(TOKENS.aws, TOKENS.root),
    ]);
    expect(wrong.code).not.toBe(ExitCode.OK);
    expect(wrong.stderr).toContain("UNAUTHENTICATED");

    const awsRun = await runMain(["--registry", aws.url, "-e", concrete(awsStatements)]);
    expect(awsRun.stderr).toBe("");
    expect(awsRun.stdout.trim().split("\n").at(-1)).toBe('"/aws"');
    const leafRun = await runMain(["--registry", leaf.url, "-e", concrete(leafStatements)]);
    expect(leafRun.stderr).toBe("");
    expect(leafRun.stdout.trim().split("\n").at(-1)).toBe('"/aws/us-reg1-xyz"');
  });
});
