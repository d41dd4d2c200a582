const MAX_QUOTED_LENGTH = 64;

/**
 * Quotes untrusted text for an error message: JSON escaping keeps control
 * characters and quotes from garbling the message, and truncation keeps a
 * megabyte of garbage input out of logs.
 */
export function quote(text: string, maxLength = MAX_QUOTED_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= maxLength) return JSON.stringify(text);
  return `${JSON.stringify(chars.slice(0, maxLength).join(""))}…`;
}
