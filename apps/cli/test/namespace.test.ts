import { describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";

// The seed's "Namespaces": a vanilla registry is "/", DECLARE DEFAULT NAMESPACE names it.
describe("srctl and the registry's namespace", () => {
  const registry = useRegistryProcess("pglite");
  const srctl = (statements: string) => runMain(["--registry", registry().url, "-e", statements]);

  it("shows /, declares a name, and shows /<name>, as the seed does", async () => {
    const before = await srctl("SHOW NAMESPACE;");
    expect(before).toMatchObject({ code: 0, stdout: '"/"\n' });
    const declared = await srctl('DECLARE DEFAULT NAMESPACE "us-reg1-xyz"; SHOW NAMESPACE;');
    expect(declared.code).toBe(0);
    expect(declared.stdout).toContain("namespace /us-reg1-xyz: declared");
    expect(declared.stdout.trim().split("\n").at(-1)).toBe('"/us-reg1-xyz"');
  });

  it("refuses a name that is not one namespace segment, and the namespace stays", async () => {
    const before = (await srctl("SHOW NAMESPACE;")).stdout;
    const refused = await srctl('DECLARE DEFAULT NAMESPACE "aws/us-reg1-xyz";');
    expect(refused.code).toBe(ExitCode.BAD_INPUT);
    expect(refused.stderr).toMatch(
      /INVALID_INPUT.*namespace name "aws\/us-reg1-xyz" has invalid character "\/"/s,
    );
    expect((await srctl("SHOW NAMESPACE;")).stdout).toBe(before);
  });
});
