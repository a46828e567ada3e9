// Draws the editor's matrix view with d3 into three <svg>s: the row labels (source tokens),
// the column labels (target tokens, rotated) and the grid, which the view lays out as a
// sheet whose labels stay in view while the grid scrolls (CSS sticky; an <svg>'s own
// content cannot be sticky). In the grid the model's link posteriors fill cells as a heat
// map; gold links are marked (sure: filled square, possible: hollow square, not saved yet:
// dashed outline) and a tagged one carries its tag's short label (as in the line view);
// rows and columns of tokens marked "not translated" are greyed; rejected cells crossed; the
// cursor cell and its row and column are highlighted. Only cells with something to show
// become elements (grid lines are one path), so a 120×120 pair stays a few hundred nodes. A
// click anywhere on the grid is mapped to its cell and handed to `onCell`.
import * as d3 from 'd3';
import { linkKey, linkName, type Link, type LinkRef } from '../../../shared/link-set.ts';
import { formatScore } from '../../../shared/link-score.ts';
import { tagLabel } from '../../../shared/link-tags.ts';

export interface MatrixData {
  src: string[];
  tgt: string[];
  srcLang: string;
  tgtLang: string;
  model: readonly Link[];
  gold: readonly Link[];
  /** Keys of gold links not saved yet (the server away): drawn dashed. */
  pending: ReadonlySet<number>;
  rejected: readonly LinkRef[];
  untranslated: readonly { side: 'src' | 'tgt'; index: number }[];
  cell: LinkRef;
  size: number;
  onCell: (s: number, t: number) => void;
}

/** Where the matrix is drawn: the row labels, the column labels and the grid. */
export interface MatrixTargets {
  rows: SVGSVGElement;
  cols: SVGSVGElement;
  grid: SVGSVGElement;
}

/** The label strips' sizes: the width of the row labels, the height of the column labels. */
export interface MatrixFrame {
  left: number;
  top: number;
}

const heat = d3.scaleSequential(d3.interpolateOranges).domain([0, 1.15]);

function labels(targets: MatrixTargets, d: MatrixData): MatrixFrame {
  const fontSize = Math.max(10, d.size * 0.62);
  const rowSvg = d3.select(targets.rows);
  const colSvg = d3.select(targets.cols);
  rowSvg.selectAll('*').remove();
  colSvg.selectAll('*').remove();
  const rows = rowSvg.append('g').attr('class', 'rows').attr('lang', d.srcLang);
  rows
    .selectAll('text')
    .data(d.src)
    .join('text')
    .attr('y', (_, i) => (i + 0.5) * d.size)
    .attr('dy', '0.35em')
    .attr('text-anchor', 'end')
    .attr('font-size', fontSize)
    .attr('class', (_, i) => (i === d.cell.s ? 'on' : null))
    .attr('data-row', (_, i) => i)
    .text((t) => t);
  const cols = colSvg.append('g').attr('class', 'cols').attr('lang', d.tgtLang);
  cols
    .selectAll('text')
    .data(d.tgt)
    .join('text')
    .attr('transform', (_, i) => `translate(${(i + 0.5) * d.size},0) rotate(-60)`)
    .attr('dy', '0.35em')
    .attr('font-size', fontSize)
    .attr('class', (_, i) => (i === d.cell.t ? 'on' : null))
    .attr('data-col', (_, i) => i)
    .text((t) => t);
  const left = Math.ceil((rows.node()?.getBBox().width ?? 0) + 14);
  const top = Math.ceil((cols.node()?.getBBox().height ?? 0) + 6);
  rows.attr('transform', `translate(${left - 7},0)`);
  cols.attr('transform', `translate(0,${top - 4})`);
  // The last column's label leans right past the grid; its strip is wide enough to show it.
  const overhang = Math.ceil(Math.max(0, (cols.node()?.getBBox().x ?? 0) + (cols.node()?.getBBox().width ?? 0) - d.tgt.length * d.size));
  rowSvg.attr('width', left).attr('height', d.src.length * d.size);
  colSvg.attr('width', d.tgt.length * d.size + overhang).attr('height', top);
  return { left, top };
}

function grid(g: d3.Selection<SVGGElement, unknown, null, undefined>, d: MatrixData, w: number, h: number): void {
  g.append('rect').attr('class', 'bg').attr('width', w).attr('height', h);
  g.append('rect')
    .attr('class', 'band')
    .attr('y', d.cell.s * d.size)
    .attr('width', w)
    .attr('height', d.size);
  g.append('rect')
    .attr('class', 'band')
    .attr('x', d.cell.t * d.size)
    .attr('width', d.size)
    .attr('height', h);
  let lines = '';
  for (let i = 0; i <= d.src.length; i++) lines += `M0,${i * d.size}H${w}`;
  for (let j = 0; j <= d.tgt.length; j++) lines += `M${j * d.size},0V${h}`;
  g.append('path').attr('class', 'grid').attr('d', lines);
  g.append('g')
    .selectAll('rect')
    .data(d.untranslated)
    .join('rect')
    .attr('class', 'untranslated')
    .attr('x', (m) => (m.side === 'tgt' ? m.index * d.size : 0))
    .attr('y', (m) => (m.side === 'src' ? m.index * d.size : 0))
    .attr('width', (m) => (m.side === 'tgt' ? d.size : w))
    .attr('height', (m) => (m.side === 'src' ? d.size : h));
}

function cells(g: d3.Selection<SVGGElement, unknown, null, undefined>, d: MatrixData): void {
  const s = d.size;
  g.append('g')
    .selectAll('rect')
    .data(d.model)
    .join('rect')
    .attr('class', 'heat')
    .attr('x', (l) => l.t * s)
    .attr('y', (l) => l.s * s)
    .attr('width', s)
    .attr('height', s)
    .attr('fill', (l) => heat(l.score ?? 1))
    .attr('data-cell', (l) => linkName(l))
    .append('title')
    .text((l) => `model ${linkName(l)}: ${formatScore(l.score ?? 1)}`);
  const rejected = g.append('g');
  rejected
    .selectAll('rect')
    .data(d.rejected)
    .join('rect')
    .attr('class', 'rejected-cell')
    .attr('x', (l) => l.t * s + 1)
    .attr('y', (l) => l.s * s + 1)
    .attr('width', s - 2)
    .attr('height', s - 2);
  rejected
    .selectAll('path')
    .data(d.rejected)
    .join('path')
    .attr('class', 'rejected')
    .attr('data-rejected', (l) => linkName(l))
    .attr('d', (l) => `M${l.t * s + s * 0.3},${l.s * s + s * 0.3}l${s * 0.4},${s * 0.4}m0,${-s * 0.4}l${-s * 0.4},${s * 0.4}`);
  const m = Math.max(2, s * 0.2);
  g.append('g')
    .selectAll('rect')
    .data(d.gold)
    .join('rect')
    .attr('class', (l) => `gold ${l.kind}${d.pending.has(linkKey(l.s, l.t)) ? ' pending' : ''}`)
    .attr('x', (l) => l.t * s + m)
    .attr('y', (l) => l.s * s + m)
    .attr('width', s - 2 * m)
    .attr('height', s - 2 * m)
    .attr('data-gold', (l) => linkName(l))
    .attr('data-tag', (l) => l.tag ?? null)
    .append('title')
    .text((l) => `gold ${linkName(l)}, ${l.kind}${l.tag ? `, ${l.tag}` : ''}`);
  const tagged = d.gold.filter((l) => l.tag);
  g.append('g')
    .selectAll<SVGTextElement, Link>('text')
    .data(tagged)
    .join('text')
    .attr('class', 'tag')
    .attr('x', (l) => (l.t + 0.5) * s)
    .attr('y', (l) => (l.s + 0.5) * s)
    .attr('font-size', Math.max(8, s * 0.36))
    .attr('data-tag-link', (l) => linkName(l))
    .each((l, i, nodes) => {
      // A label wider than its cell is squeezed into it.
      const node = nodes[i];
      node.textContent = tagLabel(l.tag ?? '');
      if (node.getComputedTextLength() > s - 2) {
        node.setAttribute('textLength', String(s - 2));
        node.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    })
    .append('title')
    .text((l) => l.tag ?? '');
  g.append('rect')
    .attr('class', 'cursor')
    .attr('x', d.cell.t * s)
    .attr('y', d.cell.s * s)
    .attr('width', s)
    .attr('height', s);
}

/** Redraws the whole matrix (cheap: see the header); the label strips' sizes, for the view's layout. */
export function drawMatrix(targets: MatrixTargets, d: MatrixData): MatrixFrame {
  const frame = labels(targets, d);
  const w = d.tgt.length * d.size,
    h = d.src.length * d.size;
  const root = d3.select(targets.grid);
  root.selectAll('*').remove();
  const g = root.append('g');
  grid(g, d, w, h);
  cells(g, d);
  g.append('rect')
    .attr('class', 'hit')
    .attr('width', w)
    .attr('height', h)
    .on('click', (event: MouseEvent) => {
      const [x, y] = d3.pointer(event);
      d.onCell(Math.min(d.src.length - 1, Math.floor(y / d.size)), Math.min(d.tgt.length - 1, Math.floor(x / d.size)));
    });
  root.attr('width', w).attr('height', h);
  return frame;
}
