/** Echoed input is cut short so an error message stays readable. */
export function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
