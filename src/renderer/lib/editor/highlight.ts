// Cuts a sentence into runs for display, marking the runs that are tokens in `hits`
// (the editor's context line highlights the cursor token and the tokens linked to it).
import type { Token } from '../../../shared/domain.ts';

export interface Run {
  text: string;
  hit: boolean;
}

export function highlightRuns(text: string, tokens: readonly Token[], hits: ReadonlySet<number>): Run[] {
  const runs: Run[] = [];
  let at = 0;
  for (const i of [...hits].sort((a, b) => a - b)) {
    const tok = tokens[i];
    if (!tok || tok.start < at) continue;
    if (tok.start > at) runs.push({ text: text.slice(at, tok.start), hit: false });
    runs.push({ text: text.slice(tok.start, tok.end), hit: true });
    at = tok.end;
  }
  if (at < text.length) runs.push({ text: text.slice(at), hit: false });
  return runs;
}
