import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistryTree, type RegistryNode } from "@stream-registry/testkit";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";

// srctl with issuer-qualified principals (issue 19), against real registries: / and /aws, where
// /aws does not grant the root's admin anything (each registry's first admin token is named
// "admin"; srctl sends each the same value, so through the root it is the root's).
describe("srctl: grants naming another registry's token", { timeout: 120_000 }, () => {
  let tree: Map<string, RegistryNode>;
  const at = (path: string) => tree.get(path)!;
  const srctl = (node: RegistryNode, ...args: string[]) => runMain(["--registry", node.url, ...args]);

  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws"], {
      env: { NODE_ENV: "production" },
      ancestorAdmins: false,
    });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
  });

  it('grants TOKEN "admin@/", shows it so, and the root\'s admin then writes at /aws through the root', async () => {
    const refused = await srctl(at("/"), "--namespace", "/aws", "-e", 'CREATE STREAM "by_root";');
    expect(refused.code).toBe(ExitCode.DENIED);
    const granted = await srctl(at("/aws"), "-e", 'GRANT ADMIN TO TOKEN "admin@/";');
    expect(granted.stderr).toBe("");
    expect(granted.code).toBe(ExitCode.OK);
    const shown = await srctl(at("/aws"), "-e", 'SHOW GRANTS FOR TOKEN "admin@/";');
    expect(shown.code).toBe(ExitCode.OK);
    expect(shown.stdout).toMatch(/^\| \/aws +\| \* +\| admin +\| token:admin@\/ +\|/m);
    const made = await srctl(at("/"), "--namespace", "/aws", "-e", 'CREATE STREAM "by_root";');
    expect(made.code).toBe(ExitCode.OK);
  });

  it("refuses a token of a registry that is not an ancestor, naming the principal", async () => {
    const run = await srctl(at("/aws"), "-e", 'GRANT READER TO TOKEN "ci@/gcp";');
    expect(run.code).toBe(ExitCode.BAD_INPUT);
    expect(run.stderr).toContain(
      "a token's issuer is this registry or one of its ancestors, by namespace path (/aws, /)",
    );
  });
});
