/** How a numbering rule writes its counter: prefix + counter zero-padded to width + suffix. */
export interface NumberFormat {
  prefix: string;
  suffix: string;
  width: number;
}

export function formatNumber(format: NumberFormat, counter: bigint): string {
  return format.prefix + counter.toString().padStart(format.width, '0') + format.suffix;
}

/** The numbers for counters start, start + 1, … (count of them). */
export function formatRange(format: NumberFormat, start: bigint, count: number): string[] {
  const items = new Array<string>(count);
  // Plain numbers are several times faster than bigint arithmetic; counters past 2^53 are rare.
  if (start + BigInt(count) <= BigInt(Number.MAX_SAFE_INTEGER)) {
    const first = Number(start);
    for (let i = 0; i < count; i++) {
      items[i] = format.prefix + String(first + i).padStart(format.width, '0') + format.suffix;
    }
  } else {
    for (let i = 0; i < count; i++) items[i] = formatNumber(format, start + BigInt(i));
  }
  return items;
}
