import type { JsonObject, JsonValue } from "./ast.ts";
import type { TokenStream } from "./token-stream.ts";
import type { Token } from "./tokens.ts";

const LITERALS: Record<string, JsonValue> = { TRUE: true, FALSE: false, NULL: null };

/**
 * A `{ ... }` config block: JSON with two liberties taken by the seed, trailing commas and `--`
 * comments (the lexer drops those). Keys must be quoted; a key written twice is an error rather
 * than a silent overwrite.
 */
export function parseConfigBlock(tokens: TokenStream): JsonObject {
  return parseObject(tokens);
}

export function parseJsonValue(tokens: TokenStream): JsonValue {
  const token = tokens.peek();
  if (token.kind === "string") return tokens.advance().value;
  if (token.kind === "number") return parseNumber(tokens, tokens.advance());
  if (token.kind === "word") {
    const literal = LITERALS[token.text.toUpperCase()];
    if (literal !== undefined) {
      tokens.advance();
      return literal;
    }
  }
  if (tokens.isPunct("{")) return parseObject(tokens);
  if (tokens.isPunct("[")) return parseArray(tokens);
  tokens.expecting("a string");
  tokens.expecting("a number");
  tokens.expecting("true");
  tokens.expecting("false");
  tokens.expecting("null");
  throw tokens.fail(elisionNote(token));
}

function parseObject(tokens: TokenStream): JsonObject {
  const open = tokens.expectPunct("{");
  const object: JsonObject = {};
  while (!tokens.isPunct("}")) {
    const keyToken = tokens.peek();
    if (keyToken.kind !== "string") {
      tokens.expecting("a quoted key");
      throw tokens.fail(keyToken.kind === "eof" ? unclosed(tokens, open) : elisionNote(keyToken));
    }
    tokens.advance();
    if (Object.hasOwn(object, keyToken.value)) {
      throw tokens.failAt(keyToken, `duplicate key ${keyToken.text} in config block`);
    }
    tokens.expectPunct(":");
    // defineProperty, not assignment: a key named "__proto__" must stay an ordinary key.
    Object.defineProperty(object, keyToken.value, {
      value: parseJsonValue(tokens),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (!tokens.isPunct(",")) {
      if (tokens.isPunct("}")) break;
      throw tokens.fail(unclosed(tokens, open));
    }
    tokens.advance();
  }
  tokens.advance();
  return object;
}

function parseArray(tokens: TokenStream): JsonValue[] {
  const open = tokens.expectPunct("[");
  const array: JsonValue[] = [];
  while (!tokens.isPunct("]")) {
    if (tokens.peek().kind === "eof") throw tokens.fail(unclosed(tokens, open));
    array.push(parseJsonValue(tokens));
    if (!tokens.isPunct(",")) {
      if (tokens.isPunct("]")) break;
      throw tokens.fail(unclosed(tokens, open));
    }
    tokens.advance();
  }
  tokens.advance();
  return array;
}

function parseNumber(tokens: TokenStream, token: Token): number {
  const value = Number(token.text);
  const isInteger = !token.text.includes(".") && !token.text.includes("e") && !token.text.includes("E");
  // Beyond 2^53 most integers round (12345678901234567890 becomes 12345678901234567000); refuse
  // rather than silently change a config value. Integers that print back as written are kept.
  if (isInteger && !Number.isSafeInteger(value) && String(value) !== token.text) {
    throw tokens.failAt(
      token,
      `integer ${token.text} cannot be kept exactly (it is beyond 2^53 and would round); write it as a string`,
    );
  }
  // JSON has no Infinity, and 1e-400 reading as 0 would silently change the value.
  if (!Number.isFinite(value)) {
    throw tokens.failAt(
      token,
      `number ${token.text} is out of range (it would become Infinity); write it as a string`,
    );
  }
  if (value === 0 && /[1-9]/.test(token.text.replace(/[eE].*$/, ""))) {
    throw tokens.failAt(token, `number ${token.text} is too small (it would become 0); write it as a string`);
  }
  return value;
}

/** Where the block that wants its "," or closing bracket was opened: it may be lines above. */
function unclosed(tokens: TokenStream, open: Token): string {
  const { line, column } = tokens.position(open.offset);
  const where = `the "${open.text}" at ${line}:${column}`;
  return tokens.peek().kind === "eof" ? `${where} is never closed` : `${where} is still open here`;
}

function elisionNote(token: Token): string | undefined {
  return token.kind === "ellipsis"
    ? '"..." marks elided text in the seed; write the actual entries'
    : undefined;
}
