// The editor's keyboard: one table from key to command, read by the editor's keydown
// handler. Arrows move the cursor (over tokens in the line view, over cells in the
// matrix; the two cursors follow each other; ↑ ↓ cross to the token aligned with the
// cursor's in gold, else by the model, else the nearest by position; Shift+← → extend the selection; Home/End go
// to the first/last token), Space links/unlinks, P flips sure/possible,
// 1–9 tag the links at the cursor (0 untags), Delete removes, N marks "not translated",
// A/R accept/reject suggestions, S/M split/merge, W wraps the line view, Enter marks done
// and opens the next pair, Ctrl+Z / Ctrl+Shift+Z undo/redo, ? helps. In a read-only project
// only the keys that look (move, view, zoom, next/previous pair, help) do anything.
import type { EditorState } from '../state/editor.svelte.ts';
import type { Link } from '../../../shared/domain.ts';
import type { TokenSide } from '../../../shared/editor-api.ts';
import { linksAt, removeLinks, toggleKind, toggleLinks, toggleTag, toggleUntranslated } from './link-ops.ts';

export interface Shortcut {
  keys: string;
  does: string;
}

export const SHORTCUTS: Shortcut[] = [
  {
    keys: '← → ↑ ↓',
    does: "move the cursor over tokens or over cells (matrix); ↑ ↓ go to the other side's token linked to this one, else the model's, else the nearest by position",
  },
  { keys: 'Home / End', does: 'the first / last token of the row (matrix: first / last cell of the row)' },
  { keys: 'Shift+← →', does: 'extend the selection to the next token: Space, ↓, Shift+→, Space links one token to two' },
  {
    keys: 'Space',
    does: 'select the token; with tokens selected on the other side, link them to it (again: unlink). Matrix: link/unlink the cell',
  },
  { keys: 'Shift+Space', does: 'add the token to the selection without linking (phrase links)' },
  { keys: 'P', does: 'toggle sure / possible for the links at the cursor' },
  { keys: 'Delete', does: 'remove the links at the cursor' },
  { keys: '1 … 9 / 0', does: "give the links at the cursor the project's tag of that number (again: untag) / clear their tag" },
  { keys: 'N', does: 'mark the token at the cursor "not translated" (again: unmark)' },
  { keys: 'A / R', does: 'accept / reject the suggestions at the cursor' },
  { keys: 'S / M', does: 'split the token at the cursor / merge it with the next one' },
  { keys: 'V', does: 'switch between line and matrix view' },
  { keys: 'W', does: 'wrap long pairs over several rows, or show one row that scrolls sideways (line view)' },
  { keys: '+ / −', does: 'zoom in / out' },
  { keys: 'Enter', does: 'mark the pair done and open the next (a pair without links or with open suggestions asks for a second Enter)' },
  { keys: 'PgDn / PgUp', does: 'next / previous pair, without marking this one done' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', does: 'undo / redo (from the edit log)' },
  { keys: 'Esc', does: 'clear the selection; in the note or the suggestion list: back to the links' },
  { keys: 'Tab', does: 'to the suggestion list, one stop (↑ ↓ choose, Enter or A accept, R or Delete reject), then the note' },
  { keys: '?', does: 'show these shortcuts' },
];

function sizes(ed: EditorState): { ns: number; nt: number } {
  return { ns: ed.pair?.srcTokens.length ?? 0, nt: ed.pair?.tgtTokens.length ?? 0 };
}

const clamp = (x: number, n: number) => Math.max(0, Math.min(n - 1, x));

/**
 * The token of the other side that ↑ ↓ land on from token `index` of `side`: the first one
 * linked to it in gold, else the model's best suggestion for it, else the token at the
 * nearest relative position in its sentence (by character offsets).
 */
function acrossFrom(ed: EditorState, side: TokenSide, index: number): number {
  const pair = ed.pair;
  if (!pair) return 0;
  const to = side === 'src' ? 't' : 's';
  const linked = linksAt(ed.layer.links, side, index).map((l) => l[to]);
  if (linked.length) return Math.min(...linked);
  const suggested = linksAt(ed.suggestions, side, index)[0];
  if (suggested) return suggested[to];
  const [from, onto] = side === 'src' ? [pair.srcTokens, pair.tgtTokens] : [pair.tgtTokens, pair.srcTokens];
  const at = (tokens: readonly { start: number; end: number }[], i: number) => {
    const last = tokens[tokens.length - 1]?.end || 1;
    return (tokens[i].start + tokens[i].end) / 2 / last;
  };
  const here = at(from, index);
  let best = 0;
  for (let i = 1; i < onto.length; i++) if (Math.abs(at(onto, i) - here) < Math.abs(at(onto, best) - here)) best = i;
  return best;
}

function moveLine(ed: EditorState, key: string, shift: boolean): void {
  const { ns, nt } = sizes(ed);
  const { side, index } = ed.cursor;
  const n = side === 'src' ? ns : nt;
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const to = clamp(index + (key === 'ArrowLeft' ? -1 : 1), n);
    // Shift extends the selection over the tokens passed, so that one Space links them all.
    if (shift && !ed.readOnly) {
      const own = ed.selected[side];
      const more = [index, to].filter((i) => !own.includes(i));
      ed.selected = { ...ed.selected, [side]: [...own, ...more] };
    }
    ed.cursor = { side, index: to };
  } else {
    const to = key === 'ArrowUp' ? 'src' : 'tgt';
    ed.cursor = { side: to, index: to === side ? index : acrossFrom(ed, side, index) };
  }
  syncCell(ed);
}

/** Home / End: the first or last token of the cursor's row (line view), or cell of the cursor's row (matrix). */
function moveToEnd(ed: EditorState, key: 'Home' | 'End'): void {
  const { ns, nt } = sizes(ed);
  if (ed.mode === 'matrix') {
    ed.cell = { ...ed.cell, t: key === 'Home' ? 0 : nt - 1 };
    ed.cursor = { side: 'tgt', index: ed.cell.t };
    return;
  }
  const n = ed.cursor.side === 'src' ? ns : nt;
  ed.cursor = { side: ed.cursor.side, index: key === 'Home' ? 0 : n - 1 };
  syncCell(ed);
}

function moveCell(ed: EditorState, key: string): void {
  const { ns, nt } = sizes(ed);
  const { s, t } = ed.cell;
  if (key === 'ArrowUp' || key === 'ArrowDown') {
    ed.cell = { s: clamp(s + (key === 'ArrowUp' ? -1 : 1), ns), t };
    ed.cursor = { side: 'src', index: ed.cell.s };
  } else {
    ed.cell = { s, t: clamp(t + (key === 'ArrowLeft' ? -1 : 1), nt) };
    ed.cursor = { side: 'tgt', index: ed.cell.t };
  }
}

/** Keeps the matrix cell on the line cursor's row or column. */
function syncCell(ed: EditorState): void {
  ed.cell = ed.cursor.side === 'src' ? { ...ed.cell, s: ed.cursor.index } : { ...ed.cell, t: ed.cursor.index };
}

/** Space (or a click) on a token: link it to the other side's selection, or select it. */
export function pickToken(ed: EditorState, side: 'src' | 'tgt', index: number, addOnly: boolean): void {
  if (ed.readOnly) return;
  const own = ed.selected[side];
  const other = side === 'src' ? ed.selected.tgt : ed.selected.src;
  if (addOnly || other.length === 0) {
    const next = own.includes(index) ? own.filter((i) => i !== index) : [...own, index];
    ed.selected = side === 'src' ? { ...ed.selected, src: next } : { ...ed.selected, tgt: next };
    return;
  }
  const mine = own.includes(index) ? own : [...own, index];
  const [sources, targets] = side === 'src' ? [mine, other] : [other, mine];
  void ed.editGold((layer) => toggleLinks(layer, sources, targets));
  ed.clearSelection();
}

/** The gold links and the suggestions at the cursor (token in the line view, cell in the matrix). */
function atCursor(ed: EditorState, links: readonly Link[]): Link[] {
  return ed.mode === 'matrix' ? linksAt(links, 'cell', ed.cell.s, ed.cell.t) : linksAt(links, ed.cursor.side, ed.cursor.index);
}

function space(ed: EditorState, shift: boolean): void {
  if (ed.mode === 'matrix') void ed.editGold((layer) => toggleLinks(layer, [ed.cell.s], [ed.cell.t]));
  else pickToken(ed, ed.cursor.side, ed.cursor.index, shift);
}

type Command = (ed: EditorState, shift: boolean) => void;

const COMMANDS: Record<string, Command> = {
  ' ': (ed, shift) => space(ed, shift),
  p: (ed) => void ed.editGold((layer) => toggleKind(layer, atCursor(ed, layer.links))),
  Delete: (ed) => void ed.editGold((layer) => removeLinks(layer, atCursor(ed, layer.links))),
  Backspace: (ed) => void ed.editGold((layer) => removeLinks(layer, atCursor(ed, layer.links))),
  n: (ed) => void ed.editGold((layer) => toggleUntranslated(layer, ed.cursor.side, ed.cursor.index)),
  a: (ed) => void ed.accept(atCursor(ed, ed.suggestions)),
  r: (ed) => void ed.reject(atCursor(ed, ed.suggestions)),
  s: (ed) => (ed.splitting = { ...ed.cursor }),
  m: (ed) => void ed.merge(ed.cursor.side, ed.cursor.index),
  v: (ed) => (ed.mode = ed.mode === 'line' ? 'matrix' : 'line'),
  w: (ed) => (ed.wrap = !ed.wrap),
  '+': (ed) => (ed.zoom = Math.min(3, ed.zoom * 1.25)),
  '=': (ed) => (ed.zoom = Math.min(3, ed.zoom * 1.25)),
  '-': (ed) => (ed.zoom = Math.max(0.3, ed.zoom / 1.25)),
  Enter: (ed) => void ed.doneAndNext(),
  PageDown: (ed) => void ed.go(1),
  PageUp: (ed) => void ed.go(-1),
  Escape: (ed) => (ed.help ? (ed.help = false) : ed.clearSelection()),
  '?': (ed) => (ed.help = !ed.help),
  '0': (ed) => void ed.editGold((layer) => toggleTag(layer, atCursor(ed, layer.links), null)),
  ...Object.fromEntries(
    Array.from({ length: 9 }, (_, i): [string, Command] => [
      String(i + 1),
      (ed) => {
        const tag = ed.linkTags[i];
        if (tag) void ed.editGold((layer) => toggleTag(layer, atCursor(ed, layer.links), tag));
      },
    ]),
  ),
};

/** The keys that only look: all a read-only project's editor answers. */
const LOOKS = new Set(['v', 'w', '+', '=', '-', 'PageDown', 'PageUp', 'Escape', '?']);

/** Runs the command bound to a key; true when the key was the editor's. */
export function handleEditorKey(ed: EditorState, event: KeyboardEvent): boolean {
  if ((event.ctrlKey || event.metaKey) && ed.readOnly) return false;
  if (event.ctrlKey || event.metaKey) {
    const key = event.key.toLowerCase();
    if (key === 'z') void (event.shiftKey ? ed.redo() : ed.undo());
    else if (key === 'y') void ed.redo();
    else return false;
    ed.clearSelection();
    return true;
  }
  if (event.altKey || !ed.pair) return false;
  if (event.key.startsWith('Arrow')) {
    if (ed.mode === 'matrix') moveCell(ed, event.key);
    else moveLine(ed, event.key, event.shiftKey);
    return true;
  }
  if (event.key === 'Home' || event.key === 'End') {
    moveToEnd(ed, event.key);
    return true;
  }
  return runCommand(ed, event.key, event.shiftKey);
}

/** Commands that keep the token selection (linking builds on it); any other one clears it, so a
 *  selection left from earlier never turns a later click into a link. */
const KEEPS_SELECTION = new Set([' ', '?', '+', '=', '-', 'w']);

/** Runs the command of a key (the toolbar's buttons use these too); false when none. */
export function runCommand(ed: EditorState, key: string, shift = false): boolean {
  const name = key.length === 1 ? key.toLowerCase() : key;
  const command =
    (Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined) ?? (Object.hasOwn(COMMANDS, key) ? COMMANDS[key] : undefined);
  if (!command || !ed.pair || (ed.readOnly && !LOOKS.has(name))) return false;
  if (!KEEPS_SELECTION.has(name)) ed.clearSelection();
  command(ed, shift);
  return true;
}
