/**
 * Why a string from outside cannot be stored or compared as it is, or undefined when it can.
 * PostgreSQL refuses NUL in text and jsonb (SQLSTATE 22021), and a lone UTF-16 surrogate is not
 * Unicode at all: jsonb rejects it, and it would not survive a round trip through UTF-8.
 */
export function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character (U+0000), which cannot be stored";
  if (!text.isWellFormed()) return "contains a lone UTF-16 surrogate, which is not valid Unicode";
  return undefined;
}
