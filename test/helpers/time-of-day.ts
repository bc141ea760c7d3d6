/** `HH:MM:SS` of `instant` in `timeZone`, by Intl alone: an oracle independent of domain/calendar.ts. */
export function localTimeOfDay(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(instant)
}
