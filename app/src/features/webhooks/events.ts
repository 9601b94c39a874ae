/** "space.*, change_request.merged" → ["space.*", "change_request.merged"]: commas or spaces separate. */
export function parseEvents(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}
