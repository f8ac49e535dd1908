/** A value for a description: quoted, long ones shortened. */
export function showValue(value: unknown): string {
  const text = String(value);
  return text.length > 40 ? `${JSON.stringify(text.slice(0, 16))}…` : JSON.stringify(text);
}
