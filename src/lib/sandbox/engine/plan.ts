/** The plan is named by its rate, so a plan change shows up as a different plan (API account and web panel alike). */
export function planOf(feeBps: number): { id: string; name: string; feeBps: number } {
  return { id: `plan_${feeBps}bps`, name: `Sandbox ${(feeBps / 100).toFixed(2).replace('.', ',')}%`, feeBps }
}
