import { describe, expect, it } from "vitest";
import { renderTable } from "../src/index.ts";
import { parseDuration } from "../src/duration.ts";
import { likeMatcher } from "../src/statements/stream-queries.ts";

describe("the seed's table format", () => {
  it("draws SHOW REPLICATIONS boxed, as the seed prints it", () => {
    const text = renderTable(
      [
        { key: "cluster", header: "CLUSTER" },
        { key: "topic", header: "TOPIC" },
        { key: "status", header: "STATUS" },
      ],
      [{ cluster: "cluster002", topic: "cluster001/widgets_v0", status: "PENDING" }],
      { boxed: true },
    );
    // Copied from seeds/000 ("Intra-NameSpace Replication").
    expect(text).toBe(`|------------+-----------------------+---------|
| CLUSTER    | TOPIC                 | STATUS  |
|------------+-----------------------+---------|
| cluster002 | cluster001/widgets_v0 | PENDING |
|------------+-----------------------+---------|`);
  });

  it("prints the header and rule of an empty table, and booleans as yes/no", () => {
    const columns = [
      { key: "stream", header: "stream" },
      { key: "default", header: "default" },
    ];
    expect(renderTable(columns, [])).toBe("| stream | default |\n|--------+---------|");
    expect(renderTable(columns, [{ stream: "s", default: false }])).toContain("| s      | no      |");
  });
});

describe("small parsers", () => {
  it("reads --timeout durations and refuses others", () => {
    expect(parseDuration("90", "--timeout")).toBe(90_000);
    expect(parseDuration("500ms", "--timeout")).toBe(500);
    expect(parseDuration("2m", "--timeout")).toBe(120_000);
    expect(() => parseDuration("0", "--timeout")).toThrow("--timeout must be greater than 0");
    expect(() => parseDuration("soon", "--timeout")).toThrow('got "soon"');
  });

  it("matches SQL LIKE patterns, with _ as one character rather than a literal", () => {
    const like = likeMatcher("widgets_v%");
    expect(["widgets_v0", "widgetsXv1", "widgets_v"].map(like)).toEqual([true, true, true]);
    expect(["widgets", "xwidgets_v0"].map(like)).toEqual([false, false]);
    expect(likeMatcher("a.b")("axb")).toBe(false);
  });
});
