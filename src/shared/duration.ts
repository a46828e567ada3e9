// A duration as people read it, shared by the Train dialog's estimate ("about 12 min") and a
// training job's progress line ("ETA 45 s"): whole seconds below 90 s, whole minutes below
// 90 min, hours and minutes above.

/** "45 s", "12 min", "2 h 10 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
