// Link tags: the types a project gives its links (GALE-style word-alignment tags), the
// default set a new project starts with, and what a tag name may be. Keys 1–9 in the
// editor set the first nine tags, so a set holds at most nine.
import { z } from 'zod';

/** GALE's link types that apply to any language pair (its DE-clause tags are Chinese-only). */
export const DEFAULT_LINK_TAGS: readonly string[] = [
  'semantic',
  'function',
  'grammatically inferred',
  'contextually inferred',
  'translated incorrectly',
];

export const MAX_LINK_TAGS = 9;

export const linkTagName = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[^\p{C}]+$/u, 'a tag is printable text');

export const linkTagSet = z
  .array(linkTagName)
  .max(MAX_LINK_TAGS)
  .refine((tags) => new Set(tags).size === tags.length, 'tag names must differ');

/** A tag's short label on a link: its initials when it has several words ("GI"), else its first three letters ("SEM"). */
export function tagLabel(tag: string): string {
  const words = tag.split(/[\s_-]+/u).filter(Boolean);
  const label = words.length > 1 ? words.map((w) => [...w][0]).join('') : [...tag].slice(0, 3).join('');
  return label.toUpperCase();
}
