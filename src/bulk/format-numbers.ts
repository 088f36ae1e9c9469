const grouped = new Intl.NumberFormat('en-US');

/** 12345 → "12,345". */
export function count(n: number): string {
  return grouped.format(n);
}

/** A duration for humans: "0.4 s", "12 s", "3 min 05 s". */
export function duration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}
