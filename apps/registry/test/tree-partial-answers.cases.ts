import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { eventually, seedChain, withAuthorization } from "@stream-registry/testkit";
import { hungChild, STREAMS_PAGE, type SeedTree, type StreamPage } from "./support/seed-tree.ts";

// The seed's tree (/, /aws, /aws/us-reg1-xyz, /mpaas, /mpaas/us-aus1-dc01) when a registry in it is
// stopped or hangs, or the client stops waiting: partial answers naming what is missing, and calls
// abandoned down the tree. Run last on the tree tree-shared.test.ts starts: they stop a leaf (and
// start it again) and hang children under /aws while they run.
export function partialAnswerCases(seed: SeedTree): void {
  describe("a tree of registries: partial answers and abandoned calls", { timeout: 120_000 }, () => {
    const at = (path: string) => seed.at(path);

    beforeAll(async () => {
      // A stream in each of these namespaces, named apart from what the cases before these made.
      await seedChain(at("/"))
        .stream({ name: "partial_root_s" })
        .at("/aws")
        .stream({ name: "partial_aws_a" })
        .at("/aws/us-reg1-xyz")
        .stream({ name: "partial_xyz_a" })
        .at("/mpaas/us-aus1-dc01")
        .stream({ name: "partial_dc01_a" });
    }, 60_000);

    it("answers a list at the root with the others' items while a leaf is stopped, naming the leaf", async () => {
      const [root, leaf] = [at("/"), at("/aws/us-reg1-xyz")];
      await leaf.stop();
      // Starting a registry again takes seconds, more on a busy machine.
      onTestFinished(() => leaf.start(), 180_000);
      // A list at the root is the others' items, with an error naming the namespace left out.
      const partial = await root.request<StreamPage>(STREAMS_PAGE, { first: 100 });
      expect(partial.errors).toEqual([
        expect.objectContaining({
          path: ["streams"],
          extensions: expect.objectContaining({ code: "CHILD_UNAVAILABLE", namespace: "/aws/us-reg1-xyz" }),
        }),
      ]);
      const namespaces = new Set(partial.data?.streams.nodes.map((s) => s.namespace));
      expect([...namespaces]).toEqual(["/", "/aws", "/mpaas/us-aus1-dc01"]);
      // What is sent to it through the root fails as unavailable, naming its namespace.
      const unavailable = await root.request(
        `{ stream(name: "widgets_v0", namespace: "/aws/us-reg1-xyz") { name } }`,
      );
      expect(unavailable.errors?.[0]).toMatchObject({
        message: expect.stringContaining("cannot be reached"),
        extensions: { code: "CHILD_UNAVAILABLE", namespace: "/aws/us-reg1-xyz" },
      });
      // Whether a namespace below it exists only it can say: the index's empty answer stands, named.
      const below = await root.request<StreamPage>(STREAMS_PAGE, {
        filter: { namespace: "/aws/us-reg1-xyz/team" },
        consistency: "INDEX",
      });
      expect(below.data?.streams.nodes).toEqual([]);
      expect(below.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining("whether namespace /aws/us-reg1-xyz/team exists is not known"),
          extensions: expect.objectContaining({ code: "CHILD_UNAVAILABLE", namespace: "/aws/us-reg1-xyz" }),
        }),
      ]);
    });

    it("names a child that hangs below a healthy one, and still lists the healthy one's items", async () => {
      await hungChild(at("/aws"));
      // /aws waits for it a margin less than the root waits for /aws: /aws answers, naming it.
      const answer = await at("/").request<StreamPage>(STREAMS_PAGE, { first: 100 });
      expect(answer.errors).toEqual([
        expect.objectContaining({
          extensions: expect.objectContaining({ code: "CHILD_UNAVAILABLE", namespace: "/aws/hung" }),
        }),
      ]);
      const namespaces = new Set(answer.data?.streams.nodes.map((s) => s.namespace));
      expect(namespaces).toContain("/aws");
      expect(namespaces).toContain("/aws/us-reg1-xyz");
    });

    it("abandons the calls down the tree when the client goes away before the answer", async () => {
      const hung = await hungChild(at("/aws"));
      const requestId = randomUUID();
      const client = new AbortController();
      const answer = fetch(at("/").url, {
        method: "POST",
        headers: withAuthorization({ "content-type": "application/json", "x-request-id": requestId }),
        body: JSON.stringify({ query: STREAMS_PAGE, variables: { first: 100 } }),
        signal: client.signal,
      });
      // The root asked /aws, which asked the hung child for its streams: then the client stops waiting.
      const fanOut = await eventually(
        async () => hung.calls.find((call) => call.operationName === "Subtree_streams"),
        10_000,
        "/aws to ask the hung child for its streams",
      );
      client.abort();
      await expect(answer).rejects.toThrow();
      // /aws closes its connection to the hung child long before it would have stopped waiting
      // (9 s: the root's 10 s, less a margin), and both log the request as abandoned.
      await eventually(async () => fanOut.closed || undefined, 3_000, "/aws to close the hung call");
      const logged = (path: string) =>
        at(path)
          .logs()
          .filter((line) => line.includes('"msg":"request"') && line.includes(requestId))
          .map((line) => (JSON.parse(line) as { status: number }).status);
      await eventually(
        async () => (logged("/")[0] === 499 && logged("/aws")[0] === 499) || undefined,
        3_000,
        "the request log lines",
      );
    });
  });
}
