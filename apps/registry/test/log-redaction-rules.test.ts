import { describe, expect, it } from "vitest";
import { redactText } from "../src/log-redaction.ts";

/** The rules every log line goes through (log-redaction.ts), one by one. */
describe("redactText", () => {
  it("keeps query parameter names and drops their values", () => {
    expect(redactText('"path":"/graphql?access_token=abc.def&x=1#top"')).toBe(
      '"path":"/graphql?access_token=[redacted]&x=[redacted]#top"',
    );
  });

  it("drops the password of a URL's user info, keeping the user and host", () => {
    expect(redactText("calling https://svc:s3cr3t-pw@sr.acme.internal:8081/subjects")).toBe(
      "calling https://svc:[redacted]@sr.acme.internal:8081/subjects",
    );
  });

  it("drops Bearer and Basic credentials and API token values wherever they stand", () => {
    expect(redactText('"msg":"sent Bearer eyJhbGciOi.x.y and basic Y2k6c3J0X3h4eA=="')).toBe(
      '"msg":"sent Bearer [redacted] and basic [redacted]"',
    );
    expect(redactText('"err":"unknown token srt_Ri4oGzSGUgRS79JzBT4mCaVaF0zSF0X3v0aVjTw1CYs"')).toBe(
      '"err":"unknown token srt_[redacted]"',
    );
  });

  it("leaves lines without credentials as they are", () => {
    const line = '{"level":30,"msg":"registry started","url":"http://127.0.0.1:4000/graphql"}';
    expect(redactText(line)).toBe(line);
  });
});
